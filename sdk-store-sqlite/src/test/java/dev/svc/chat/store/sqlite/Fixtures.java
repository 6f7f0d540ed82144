package dev.svc.chat.store.sqlite;

import java.io.File;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Room;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;

/** Messages, rooms and stores for the store's tests. */
final class Fixtures {
  static final long T0 = 1_700_000_000_000L;

  private Fixtures() {
  }

  /** Returns message {@code roomId}-{@code seq} at revision {@code rev}, created at T0 + seq seconds. */
  static Message message(String roomId, long seq, long rev) {
    return Message.builder().id(roomId + "-m" + seq).roomId(roomId).seq(seq).rev(rev).senderId("bob")
        .clientMessageId("c-" + roomId + "-" + seq).createdAt(T0 + seq * 1000).addPart(MessagePart.text("hi " + seq))
        .build();
  }

  /** Returns a write of the messages {@code from..to} of a room (rev = seq) and the watermark {@code to}. */
  static StoreWrite batch(String roomId, long from, long to) {
    StoreWrite w = new StoreWrite();
    for (long s = from; s <= to; s++) w.message(message(roomId, s, s));
    return w.watermarks(roomId, to, to);
  }

  static Room room(String id, long lastMessageAt) {
    return Room.builder().id(id).name("Room " + id).memberIds(java.util.Arrays.asList("alice", "bob"))
        .createdAt(T0).lastMessageSeq(3).lastMessageAt(lastMessageAt).rev(7).build();
  }

  /** Returns the seqs of a page. */
  static List<Long> seqs(MessagePage page) {
    List<Long> seqs = new ArrayList<>();
    for (Message m : page.messages()) seqs.add(m.seq());
    return seqs;
  }

  static List<Long> range(long from, long to) {
    List<Long> list = new ArrayList<>();
    for (long s = from; s <= to; s++) list.add(s);
    return list;
  }

  static StoredRoom stored(ChatStore store, String roomId) throws StoreException {
    for (StoredRoom r : store.rooms()) if (r.room().id().equals(roomId)) return r;
    return null;
  }

  static List<String> roomIds(ChatStore store) throws StoreException {
    List<String> ids = new ArrayList<>();
    for (StoredRoom r : store.rooms()) ids.add(r.room().id());
    return ids;
  }

  /** Returns a room's low_seq as stored (read by a second connection, as WAL allows beside the open store). */
  static long lowSeq(File dir, String userId, String roomId) throws SQLException {
    try (Connection c = connect(SqliteChatStore.provider(dir).file(userId));
        java.sql.PreparedStatement p = c.prepareStatement("SELECT low_seq FROM rooms WHERE id = ?")) {
      p.setString(1, roomId);
      try (java.sql.ResultSet rs = p.executeQuery()) {
        if (!rs.next()) throw new AssertionError("no room " + roomId);
        return rs.getLong(1);
      }
    }
  }

  /** Returns the count a query reads from a user's store (by a second connection, as WAL allows). */
  static long count(File dir, String userId, String sql) throws SQLException {
    try (Connection c = connect(SqliteChatStore.provider(dir).file(userId));
        java.sql.ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Opens a plain connection to a database file, for a test's own SQL. */
  static Connection connect(File file) throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + file.getAbsolutePath());
  }
}
