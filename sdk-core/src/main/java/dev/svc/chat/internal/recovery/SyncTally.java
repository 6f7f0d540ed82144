package dev.svc.chat.internal.recovery;

import java.util.HashSet;
import java.util.Set;

import dev.svc.chat.RecoveryEvent;

/**
 * The room back-fills of one reconnect's recovery (after a loss) and what they delivered, for the
 * {@link RecoveryEvent.Phase#FINISHED} report once the last one ends. Made when the recovery starts and dropped
 * when it is reported, so a client not recovering holds none. Confined to the actor.
 */
final class SyncTally {
  private final Set<RoomBackfill> running = new HashSet<>();
  private int rooms;
  private int messages;
  private int updates;
  private int receipts;

  /** Counts {@code backfill} in this recovery. */
  void add(RoomBackfill backfill) {
    if (backfill.done) {
      count(backfill); // it finished before it was handed over (its reads were answered at once)
    } else {
      running.add(backfill);
    }
  }

  /** Adds what {@code done} delivered if it is one of this recovery's back-fills. */
  void finished(RoomBackfill done) {
    if (running.remove(done)) count(done);
  }

  private void count(RoomBackfill done) {
    rooms++;
    messages += done.messages;
    updates += done.updates;
    receipts += done.receipts;
  }

  /** Returns whether a back-fill of this recovery has not finished. */
  boolean pending() {
    return !running.isEmpty();
  }

  /** Returns the report of the whole recovery. */
  RecoveryEvent report() {
    return new RecoveryEvent(RecoveryEvent.Phase.FINISHED, null, rooms, messages, updates, receipts);
  }
}
