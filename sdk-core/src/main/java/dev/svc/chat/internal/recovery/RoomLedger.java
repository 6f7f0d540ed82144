package dev.svc.chat.internal.recovery;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import org.jspecify.annotations.Nullable;

/**
 * What a client has delivered of one room, so that each message is delivered once and in order, and what
 * it missed can be asked for: the highest {@code seq} delivered with no gap below it, and the room revision
 * below which every change was applied (the watermark). Confined to the client's actor.
 *
 * <p>Revisions are tracked exactly only above the watermark, where a change may have been applied out of
 * order; below it one number says it all. So the state stays small whatever the room's history.
 */
final class RoomLedger {
  /** How many early messages a room keeps while it waits for the ones before them (more are fetched again). */
  static final int MAX_HELD = 1_000;

  final String roomId;
  /** The highest seq delivered as a new message, with every seq below it delivered too. */
  long seq;
  /** Every change of revision at most this was applied (delivered, or superseded by a later state). */
  long rev;
  /** Revisions above {@link #rev} that were applied out of order. */
  private final TreeSet<Long> appliedAbove = new TreeSet<>();
  /** The latest revision delivered per message, for revisions above {@link #rev}. */
  private final Map<String, Long> revOf = new HashMap<>();
  /** Messages that arrived before the ones preceding them, by seq, in the latest state seen. */
  final TreeMap<Long, Message> held = new TreeMap<>();
  /** The receipt seq delivered per user. */
  private final Map<String, Long> receiptSeq = new HashMap<>();

  /** Where the room's recovery stands; moved only by {@link #moveTo}. */
  private RoomState state;
  /**
   * Whether a back-fill's read moved this room's ledger since the connection was last lost: such a read may have
   * been answered after the next connection's position was read, so the ledger above that position is no sign of
   * a service that went back.
   */
  boolean readSinceLoss;

  /** The back-fill of this room, while one runs or waits its turn. */
  RoomBackfill backfill;
  /** The timer that reads the changes if a revision gap stays open. */
  dev.svc.chat.internal.util.Scheduler.Timer gapTimer;

  RoomLedger(String roomId, long seq, long rev, RoomState state) {
    this.roomId = roomId;
    this.seq = seq;
    this.rev = rev;
    this.state = state;
  }

  RoomState state() {
    return state;
  }

  /** Moves the room to {@code next}; a move {@link RoomState} does not list is a defect of the caller. */
  void moveTo(RoomState next) {
    if (!state.mayMoveTo(next)) throw new IllegalStateException("room " + roomId + ": " + state + " -> " + next);
    state = next;
  }

  /** Returns whether the change to revision {@code r} of message {@code id} was applied already. */
  boolean applied(String id, long r) {
    if (r <= rev || appliedAbove.contains(r)) return true;
    Long latest = revOf.get(id);
    return latest != null && latest >= r;
  }

  /**
   * Records that message {@code m} was delivered in its state of its revision; its id is asked for only when it is
   * recorded (a message read from a frame makes its id when first asked).
   */
  void markApplied(Message m) {
    long r = m.rev();
    markApplied(r <= rev || r == rev + 1 && appliedAbove.isEmpty() ? null : m.id(), r);
  }

  /**
   * Records that message {@code id} was delivered in its state of revision {@code r}; {@code id} may be null only
   * when {@code r} is at most the watermark or the next revision with none applied above it.
   */
  void markApplied(@Nullable String id, long r) {
    if (r <= rev) return;
    if (r == rev + 1 && appliedAbove.isEmpty()) {
      // the commonest case, the next revision in order: the watermark moves, nothing is recorded per message
      long before = rev;
      rev = r;
      advance(before);
      return;
    }
    appliedAbove.add(r);
    Long latest = revOf.get(id);
    if (latest == null || latest < r) revOf.put(id, r);
    advance(rev);
  }

  /** Returns whether a revision above the watermark is missing while a later one was applied. */
  boolean hasRevisionGap() {
    return !appliedAbove.isEmpty();
  }

  /** After a complete scan of the changes up to {@code r}: everything up to it was applied. */
  void raiseWatermark(long r) {
    if (r <= rev) return;
    long before = rev;
    rev = r;
    appliedAbove.headSet(r, true).clear();
    advance(before);
  }

  /** Moves the watermark over revisions applied in order; forgets what falls below it once it moved past {@code before}. */
  private void advance(long before) {
    while (!appliedAbove.isEmpty() && appliedAbove.first() == rev + 1) rev = appliedAbove.pollFirst();
    if (rev == before || revOf.isEmpty()) return; // entries are added above the watermark: nothing to prune
    for (Iterator<Long> it = revOf.values().iterator(); it.hasNext(); ) {
      if (it.next() <= rev) it.remove();
    }
  }

  /**
   * Keeps {@code m}, which cannot be delivered yet, in its latest state. When {@link #MAX_HELD} are held it is
   * dropped: it lies beyond {@link #seq}, so a back-fill reads it again.
   */
  void hold(Message m) {
    Message known = held.get(m.seq());
    if (known != null) {
      if (m.rev() > known.rev()) held.put(m.seq(), m);
    } else if (held.size() < MAX_HELD) {
      held.put(m.seq(), m);
    }
  }

  /**
   * Returns the held message that follows {@link #seq} without a gap, removed, after dropping those at or below
   * it (repeats); null when none follows yet.
   */
  Message nextHeld() {
    while (!held.isEmpty() && held.firstKey() <= seq) held.pollFirstEntry();
    return !held.isEmpty() && held.firstKey() == seq + 1 ? held.pollFirstEntry().getValue() : null;
  }

  /** Returns whether {@code receipt} is newer than what was delivered for its user, and records it if so. */
  boolean newerReceipt(Receipt receipt) {
    Long known = receiptSeq.get(receipt.userId());
    if (known != null && known >= receipt.seq()) return false;
    receiptSeq.put(receipt.userId(), receipt.seq());
    return true;
  }

  /** Returns whether any receipt of {@code userId} was delivered. */
  boolean knowsReceiptOf(String userId) {
    return receiptSeq.containsKey(userId);
  }

  @Override
  public String toString() {
    return "RoomLedger{" + roomId + ", " + state + ", seq=" + seq + ", rev=" + rev + ", revisions above=" + appliedAbove
        + ", held=" + (held.isEmpty() ? "none" : held.size() + " from " + held.firstKey()) + ", backfill=" + (backfill != null) + "}";
  }
}
