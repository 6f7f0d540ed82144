package dev.svc.chat.internal.rooms;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.svc.chat.Message;
import dev.svc.chat.Room;
import dev.svc.chat.RoomSummary;

/**
 * One room of the list: its unread messages and its newest visible ones. Confined to the actor.
 *
 * <p>The unread rule: a message of another user, with a seq above the user's own receipt, not deleted. The
 * tally knows every message from {@link #knownFrom} up, because recovery delivers a room's messages once, in
 * seq order, without a gap; so the count is exact when the receipt is known and at least
 * {@code knownFrom - 1}. Otherwise {@link UnreadFill} reads the receipt and the messages in between. At most
 * {@code cap + 1} unread seqs are kept: past that the lowest is dropped and {@link #knownFrom} moves above it,
 * so memory stays bounded in a room the user never reads.
 *
 * <p>The unread mentions (contract section 10) are the unread messages whose {@code mentions} hold the user: a
 * subset of {@link #unread}, kept with it (an edit that adds or drops the mention moves it in or out), so they are
 * exact whenever the unread count is.
 */
final class RoomTally {
  /** Visible messages kept for the last-message column: a delete of the newest falls back on the next. */
  static final int RECENT = 4;

  Room room;
  /** The seq of the user's own receipt; -1 while not known. */
  long readSeq = -1;
  /** Every message from this seq up was seen; {@link Long#MAX_VALUE} while none was. */
  long knownFrom = Long.MAX_VALUE;
  /** The unread messages: seq to id. */
  final TreeMap<Long, String> unread = new TreeMap<>();
  /** The seqs of {@link #unread} whose message mentions the user. */
  final TreeSet<Long> mentions = new TreeSet<>();
  /** The newest messages not deleted, by seq. */
  final TreeMap<Long, Message> recent = new TreeMap<>();
  /** Whether a fill runs for this room. */
  boolean filling;
  /**
   * The seqs below {@link #knownFrom} deleted while a fill runs: a page the fill read before the delete still
   * shows the message, and must not count it. Emptied when the fill ends, so it holds at most the deletes of the
   * range one fill reads.
   */
  final Set<Long> deletedWhileFilling = new HashSet<>();
  /** Whether a fill found the room unreadable (403, 404): not tried again. */
  boolean unfillable;
  /** The summary of the last snapshot; null when something changed since. */
  RoomSummary summary;

  RoomTally(Room room) {
    this.room = room;
  }

  /** Returns whether the count is exact: the receipt is known and every message above it was seen. */
  boolean exact() {
    return readSeq >= 0 && knownFrom <= readSeq + 1;
  }

  /** The room as listed: a room with nothing seen yet knows every message after its listed last one. */
  void listed(Room listed) {
    // a listing answered after a live message of the room is older than it: it never moves the room back
    room = listed.rev() >= room.rev() ? listed : listed.newBuilder().rev(room.rev())
        .lastMessageSeq(room.lastMessageSeq()).lastMessageAt(room.lastMessageAt()).build();
    if (knownFrom == Long.MAX_VALUE) knownFrom = listed.lastMessageSeq() + 1;
    summary = null;
  }

  /**
   * Starts from the store: the room, the first seq of its stored history and what it holds above the receipt
   * ({@code digest} null: nothing stored of it but its row).
   */
  void restore(Room stored, dev.svc.chat.store.RoomDigest digest, String me, int cap) {
    room = stored;
    if (digest == null) {
      listed(stored);
      return;
    }
    knownFrom = digest.lowSeq();
    for (Message m : digest.recent()) recent.put(m.seq(), m);
    for (Message m : digest.unread()) {
      if (!m.senderId().equals(me) && !m.isDeleted() && m.seq() > readSeq) count(m, me);
    }
    trim(cap);
    summary = null;
  }

  /** A message of the room, new or changed, seen by this user {@code me}. */
  void message(Message m, String me, int cap) {
    if (m.seq() > room.lastMessageSeq() || m.rev() > room.rev()) {
      // the room follows its messages, so the listing of a reconnect finds it as it is (no change to show)
      Room.Builder b = room.newBuilder().rev(Math.max(room.rev(), m.rev()));
      if (m.seq() > room.lastMessageSeq()) b.lastMessageSeq(m.seq()).lastMessageAt(m.createdAt());
      room = b.build();
    }
    if (m.seq() < knownFrom && (knownFrom == Long.MAX_VALUE || m.seq() == knownFrom - 1)) knownFrom = m.seq();
    if (m.isDeleted()) {
      if (filling && m.seq() < knownFrom) deletedWhileFilling.add(m.seq());
      unread.remove(m.seq());
      mentions.remove(m.seq());
      recent.remove(m.seq());
    } else {
      if (!recent.isEmpty() && m.seq() < recent.firstKey() && recent.size() >= RECENT) {
        // older than every recent one kept: not shown
      } else {
        recent.put(m.seq(), m);
        while (recent.size() > RECENT) recent.pollFirstEntry();
      }
      if (!m.senderId().equals(me) && m.seq() > readSeq && m.seq() >= knownFrom) {
        count(m, me);
        trim(cap);
      }
    }
    summary = null;
  }

  /**
   * A message seen by a fill: below {@link #knownFrom}, read in seq order up to it, possibly before a delete the
   * tally has seen since.
   */
  void filled(Message m, String me) {
    if (m.isDeleted() || m.senderId().equals(me) || m.seq() <= readSeq || m.seq() >= knownFrom) return;
    if (deletedWhileFilling.contains(m.seq())) return;
    count(m, me);
    summary = null;
  }

  /** Counts an unread message, and its mention of {@code me} or the lack of one (an edit may drop it). */
  private void count(Message m, String me) {
    unread.put(m.seq(), m.id());
    if (m.mentions().contains(me)) {
      mentions.add(m.seq());
    } else {
      mentions.remove(m.seq());
    }
  }

  /** Keeps at most {@code cap + 1} unread messages: the lowest go, and {@link #knownFrom} moves above them. */
  private void trim(int cap) {
    while (unread.size() > cap + 1) {
      long dropped = unread.pollFirstEntry().getKey();
      mentions.remove(dropped);
      knownFrom = Math.max(knownFrom, dropped + 1);
    }
  }

  /** The fill of this room ended: what it read is counted, and the deletes seen meanwhile are no longer needed. */
  void fillEnded() {
    filling = false;
    deletedWhileFilling.clear();
  }

  /** The user read up to {@code seq} (on this device or another): a receipt never moves back. */
  boolean read(long seq) {
    if (seq <= readSeq) return false;
    readSeq = seq;
    unread.headMap(seq, true).clear();
    mentions.headSet(seq, true).clear();
    summary = null;
    return true;
  }

  /** Returns the seq of message {@code id} if the tally knows it (unread or recent), else -1. */
  long seqOf(String id) {
    for (Map.Entry<Long, String> e : unread.entrySet()) {
      if (e.getValue().equals(id)) return e.getKey();
    }
    for (Message m : recent.values()) {
      if (m.id().equals(id)) return m.seq();
    }
    return -1;
  }

  RoomSummary summary(int cap) {
    if (summary == null) {
      Message last = recent.isEmpty() ? null : recent.lastEntry().getValue();
      long activity = room.createdAt();
      if (room.lastMessageAt() != null) activity = Math.max(activity, room.lastMessageAt());
      if (last != null) activity = Math.max(activity, last.createdAt());
      int count = Math.min(unread.size(), cap);
      summary = new RoomSummary(room, last, count, unread.size() > cap, activity, Math.min(mentions.size(), cap));
    }
    return summary;
  }
}
