package dev.svc.chat.store.sql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredSend;

/**
 * Applies one {@link StoreWrite} inside the transaction {@link SqlChatStore#write} opened, in the order
 * StoreWrite documents (rooms removed, rooms, messages, kept messages, receipts, watermarks, sends, ended sends),
 * then keeps the ranges and the bounds, then writes the search index's rows ({@link IndexWrites}): the stored range of each room touched, each such room's oldest messages
 * beyond the limit, the least recently active rooms beyond the limit. Every message and receipt belongs to a room
 * row (created with its id only when needed), so the bounds reach everything stored.
 */
final class WriteApplier {
  private final SqlDatabase db;
  private final int maxMessagesPerRoom;
  private final int maxRooms;
  private final Set<String> known = new HashSet<>();
  private final Map<String, Long> activity = new HashMap<>();
  private final Set<String> rangesTouched = new LinkedHashSet<>();
  private final Set<String> messagesTouched = new LinkedHashSet<>();
  private final IndexWrites index = new IndexWrites();
  private boolean roomsAdded;

  WriteApplier(SqlDatabase db, int maxMessagesPerRoom, int maxRooms) {
    this.db = db;
    this.maxMessagesPerRoom = maxMessagesPerRoom;
    this.maxRooms = maxRooms;
  }

  void apply(StoreWrite write) throws StoreException {
    for (String roomId : write.removedRooms()) removeRoom(db, roomId);
    for (Room room : write.rooms()) putRoom(room);
    for (Message m : write.messages()) putMessage(m, true);
    for (Message m : write.keptMessages()) putMessage(m, false);
    for (Receipt r : write.receipts()) putReceipt(r);
    for (StoreWrite.Watermark w : write.watermarks()) putWatermark(w);
    for (StoredSend s : write.sends()) putSend(s);
    for (StoreWrite.EndedSend e : write.endedSendsInRooms()) endSend(e);
    for (Receipt r : write.pendingReads()) {
      db.update("INSERT OR IGNORE INTO pending_reads (room_id, user_id, message_id, seq, read_at)"
          + " VALUES (?, ?, ?, ?, ?)", r.roomId(), r.userId(), r.messageId(), r.seq(), r.readAt());
      db.update("UPDATE pending_reads SET message_id = ?, seq = ?, read_at = ? WHERE room_id = ? AND seq < ?",
          r.messageId(), r.seq(), r.readAt(), r.roomId(), r.seq());
    }
    for (Map.Entry<String, Long> sent : write.sentReads().entrySet()) {
      db.update("DELETE FROM pending_reads WHERE room_id = ? AND seq <= ?", sent.getKey(), sent.getValue());
    }
    for (String roomId : rangesTouched) extendRange(roomId);
    for (String roomId : messagesTouched) RoomRange.evictOldest(db, roomId, maxMessagesPerRoom);
    for (Map.Entry<String, Long> e : activity.entrySet()) {
      db.update("UPDATE rooms SET activity_at = max(activity_at, ?) WHERE id = ?", e.getValue(), e.getKey());
    }
    if (roomsAdded) evictRooms();
    index.write(db); // after every message row this write deletes
    if (write.writtenAt() != 0) {
      db.update("INSERT OR REPLACE INTO meta (key, value) VALUES ('written_at', ?)",
          Long.toString(write.writtenAt()));
    }
  }

  static void removeRoom(SqlDatabase db, String roomId) throws StoreException {
    db.update("DELETE FROM pending_reads WHERE room_id = ?", roomId);
    db.update("DELETE FROM messages WHERE room_id = ?", roomId);
    db.update("DELETE FROM receipts WHERE room_id = ?", roomId);
    db.update("DELETE FROM rooms WHERE id = ?", roomId);
  }

  private void ensureRoom(String roomId) throws StoreException {
    if (!known.add(roomId)) return;
    if (db.update("INSERT OR IGNORE INTO rooms (id) VALUES (?)", roomId) > 0) roomsAdded = true;
  }

  private void putRoom(Room room) throws StoreException {
    ensureRoom(room.id());
    db.update("UPDATE rooms SET name = ?, members = ?, created_at = ?, last_message_seq = ?, last_message_at = ?,"
        + " rev = ? WHERE id = ?", room.name(), RowJson.strings(room.memberIds()), room.createdAt(),
        room.lastMessageSeq(), room.lastMessageAt(), room.rev(), room.id());
    Long last = room.lastMessageAt();
    active(room.id(), Math.max(room.createdAt(), last == null ? 0 : last));
  }

  /**
   * Stores a message in its latest revision. {@code delivered_rev} is the highest revision of it an event
   * delivered (-1: none): a message kept from a page never raises it, so after a restart recovery takes as
   * delivered only what events delivered.
   */
  private void putMessage(Message m, boolean delivered) throws StoreException {
    ensureRoom(m.roomId());
    String json = RowJson.message(m);
    long deliveredRev = delivered ? m.rev() : -1;
    // a new message (the common case) is a free key's lookup and one statement; IGNORE leaves a stored one to
    // the rev check below
    long rowid = MessageKeys.free(db, m.createdAt());
    if (db.update("INSERT OR IGNORE INTO messages (rowid, id, room_id, seq, rev, created_at, deleted, json,"
        + " sender_id, delivered_rev) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rowid, m.id(), m.roomId(), m.seq(),
        m.rev(), m.createdAt(), m.isDeleted() ? 1 : 0, json, m.senderId(), deliveredRev) > 0) {
      index.inserted(rowid, m);
      touched(m);
      return;
    }
    long[] stored = {-1, 0, 0};
    String[] storedJson = {null};
    db.query("SELECT rev, rowid, created_at, json FROM messages WHERE id = ?", row -> {
      stored[0] = row.integer(0);
      stored[1] = row.integer(1);
      stored[2] = row.integer(2);
      storedJson[0] = RoomRange.text(row, 3);
    }, m.id());
    if (stored[0] < 0) {
      // ignored for another row: a message of another id at the same room and seq, which the store refuses
      throw new StoreException(StoreException.Kind.IO, "message " + m.id() + " takes the seq " + m.seq()
          + " of another message of room " + m.roomId(), null);
    } else if (m.rev() > stored[0]) {
      // the rowid keeps holding the time (MessageKeys): a revision of another createdAt moves the row
      long newRowid = MessageKeys.time(m.createdAt()) == MessageKeys.time(stored[2]) ? stored[1]
          : MessageKeys.free(db, m.createdAt());
      db.update("UPDATE messages SET rowid = ?, room_id = ?, seq = ?, rev = ?, created_at = ?, deleted = ?,"
          + " json = ?, delivered_rev = max(delivered_rev, ?) WHERE id = ?", newRowid, m.roomId(), m.seq(), m.rev(),
          m.createdAt(), m.isDeleted() ? 1 : 0, json, deliveredRev, m.id());
      // the index row follows the message's current revision
      index.updated(stored[1], RowJson.message(storedJson[0]), newRowid, m);
    } else {
      // a revision at least as new is stored: an older one never replaces it, but its delivery counts
      if (delivered) {
        db.update("UPDATE messages SET delivered_rev = max(delivered_rev, ?) WHERE id = ?", m.rev(), m.id());
      }
      return;
    }
    touched(m);
  }

  private void touched(Message m) {
    rangesTouched.add(m.roomId());
    messagesTouched.add(m.roomId());
    active(m.roomId(), m.createdAt());
  }

  private void putReceipt(Receipt r) throws StoreException {
    ensureRoom(r.roomId());
    db.update("INSERT OR IGNORE INTO receipts (room_id, user_id, message_id, seq, read_at) VALUES (?, ?, ?, ?, ?)",
        r.roomId(), r.userId(), r.messageId(), r.seq(), r.readAt());
    // never backwards: only a higher seq replaces the stored receipt
    db.update("UPDATE receipts SET message_id = ?, seq = ?, read_at = ? WHERE room_id = ? AND user_id = ? AND seq < ?",
        r.messageId(), r.seq(), r.readAt(), r.roomId(), r.userId(), r.seq());
  }

  private void putWatermark(StoreWrite.Watermark w) throws StoreException {
    ensureRoom(w.roomId());
    long[] old = {0, -1};
    db.query("SELECT low_seq, seq_watermark FROM rooms WHERE id = ?", row -> {
      old[0] = row.integer(0);
      old[1] = row.integer(1);
    }, w.roomId());
    long low = RoomRange.afterWatermark(db, w.roomId(), old[0], old[1], w.seq());
    db.update("UPDATE rooms SET seq_watermark = ?, rev_watermark = ?, low_seq = ? WHERE id = ?", w.seq(), w.rev(),
        low, w.roomId());
    rangesTouched.add(w.roomId());
  }

  private void putSend(StoredSend s) throws StoreException {
    db.update("INSERT OR REPLACE INTO sends (client_message_id, room_id, sender_id, parts, created_at, sequence,"
        + " links) VALUES (?, ?, ?, ?, ?, ?, ?)", s.clientMessageId(), s.roomId(), s.senderId(),
        RowJson.parts(s.parts()), s.createdAt(), s.sequence(), RowJson.links(s));
  }

  private void endSend(StoreWrite.EndedSend e) throws StoreException {
    if (e.roomId() == null) {
      db.update("DELETE FROM sends WHERE client_message_id = ?", e.clientMessageId());
    } else {
      db.update("DELETE FROM sends WHERE room_id = ? AND client_message_id = ?", e.roomId(), e.clientMessageId());
    }
  }

  private void extendRange(String roomId) throws StoreException {
    long[] range = {0, -1};
    db.query("SELECT low_seq, seq_watermark FROM rooms WHERE id = ?", row -> {
      range[0] = row.integer(0);
      range[1] = row.integer(1);
    }, roomId);
    if (range[1] < 0) return; // no watermark: no range
    long low = RoomRange.extendDown(db, roomId, range[0]);
    if (low != range[0]) db.update("UPDATE rooms SET low_seq = ? WHERE id = ?", low, roomId);
  }

  private void active(String roomId, long at) {
    Long known = activity.get(roomId);
    if (known == null || at > known) activity.put(roomId, at);
  }

  private void evictRooms() throws StoreException {
    long count = RoomRange.count(db, "SELECT count(*) FROM rooms");
    if (count <= maxRooms) return;
    List<String> oldest = new ArrayList<>();
    db.query("SELECT id FROM rooms ORDER BY activity_at, id LIMIT ?", row -> oldest.add(RoomRange.text(row, 0)),
        count - maxRooms);
    for (String roomId : oldest) removeRoom(db, roomId);
  }
}
