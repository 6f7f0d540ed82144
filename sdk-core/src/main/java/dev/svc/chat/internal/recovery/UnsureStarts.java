package dev.svc.chat.internal.recovery;

import java.util.HashSet;
import java.util.Set;

/**
 * The rooms whose start the first listing left unsure ({@link RoomLedger#startCutoff}) and whose watermarks are
 * therefore not journaled yet: their listed seq may count messages the app has not received, so a store that
 * kept it would make a restart skip them. While any is left the journal is told since when the starts are unsure
 * ({@link RecoveryJournal#startsUnsureSince}), so that a restart recovers as after a loss at that time and reads
 * those rooms (not started in the store) from before it. A room leaves when its watermarks are journaled (its
 * first delivery, a back-fill's start) or it is forgotten. Made with the first such room; confined to the actor.
 */
final class UnsureStarts {
  private final RecoveryJournal journal;
  private final Set<String> rooms = new HashSet<>(4);

  /** Tells {@code journal} that starts are unsure since {@code acceptedAt}, the first connection's acceptance. */
  UnsureStarts(RecoveryJournal journal, long acceptedAt) {
    this.journal = journal;
    journal.startsUnsureSince(acceptedAt);
  }

  void add(String roomId) {
    rooms.add(roomId);
  }

  /** The room's watermarks were journaled (or it was forgotten); returns whether no unsure start is left. */
  boolean covered(String roomId) {
    if (!rooms.remove(roomId) || !rooms.isEmpty()) return false;
    journal.startsUnsureSince(0);
    return true;
  }
}
