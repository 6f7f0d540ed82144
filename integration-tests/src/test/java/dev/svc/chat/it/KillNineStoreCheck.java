package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoredSend;
import dev.svc.chat.store.StoredState;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import java.io.File;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@link StoreKillNineTest} asserts of alice's store, read in the test JVM while no client has it open:
 * after each kill, that it is consistent and never went backwards; at the end, that it equals the service.
 */
final class KillNineStoreCheck {
  /** The default bound of SqliteChatStore.provider: below it, nothing is evicted. */
  static final int MAX_MESSAGES = 1000;

  /** A room's row: its stored range {@code [low, seq]} and its revision watermark. */
  record RoomRow(long low, long seq, long rev) {}

  /** A message's row. */
  record MessageRow(String id, String roomId, long seq, long rev, boolean deleted) {}

  private final File dir;
  private final List<String> rooms;
  private final Map<String, RoomRow> lastRooms = new HashMap<>();
  private final Map<String, RoomRow> firstRooms = new HashMap<>();
  private final Map<String, Long> lastReceipts = new HashMap<>();
  /** The sends seen in the outbox table after some kill: each must reach the service exactly once. */
  final Set<String> durableSends = new LinkedHashSet<>();
  int maxPendingSeen;
  int messagesAboveWatermark;

  KillNineStoreCheck(File dir, List<String> rooms) {
    this.dir = dir;
    this.rooms = rooms;
  }

  /** Returns alice's database file (the only one under the directory), or a file that does not exist. */
  private File file() {
    File[] dbs = dir.listFiles((d, name) -> name.endsWith(".db"));
    return dbs == null || dbs.length == 0 ? new File(dir, "none.db") : dbs[0];
  }

  /**
   * Opens the store as the SDK would (which also reads every pending send and every change above a watermark),
   * then asserts, against the service's state read now (nothing runs meanwhile): every room's range
   * {@code [low, seq watermark]} holds every message of it (a room's delivery starts at its last seq when the
   * store first lists it) and never loses its start; no watermark is ahead of the service
   * or behind its previous value; every change at or below the revision watermark is stored in that revision;
   * no receipt went backwards; every pending send is whole.
   */
  void afterKill(int kill, KillNineServer server) throws Exception {
    if (!file().exists()) return; // killed before the store was created
    ChatStore store = SqliteChatStore.provider(dir).open("alice");
    StoredState state;
    try {
      state = store.load();
    } finally {
      store.close();
    }
    maxPendingSeen = Math.max(maxPendingSeen, state.sends().size());
    for (StoredSend s : state.sends()) {
      assertWhole(s);
      durableSends.add(s.clientMessageId());
    }
    try (Connection c = connect()) {
      Map<String, RoomRow> roomRows = roomRows(c);
      List<MessageRow> messages = messageRows(c);
      for (String roomId : rooms) {
        RoomRow row = roomRows.get(roomId);
        if (System.getProperty("svc.it.verbose") != null) {
          System.out.println("kill " + kill + " room " + roomId + " " + row + " seqs " + new java.util.TreeSet<>(
              messages.stream().filter(m -> m.roomId().equals(roomId)).map(MessageRow::seq).toList()));
        }
        if (row == null || row.seq() < 0) continue;
        String at = "kill " + kill + ", room " + roomId + " " + row + " (before: " + lastRooms.get(roomId)
            + ", stored seqs " + new java.util.TreeSet<>(messages.stream().filter(m -> m.roomId().equals(roomId))
            .map(MessageRow::seq).toList()) + "): ";
        KillNineServer.Room truth = server.room(roomId);
        Map<Long, MessageRow> stored = new HashMap<>();
        for (MessageRow m : messages) if (m.roomId().equals(roomId)) stored.put(m.seq(), m);
        assertTrue(row.seq() <= truth.lastMessageSeq() && row.rev() <= truth.rev(),
            at + "a watermark ahead of the service (last seq " + truth.lastMessageSeq() + ", rev " + truth.rev() + ")");
        for (long seq = row.low(); seq <= row.seq(); seq++) {
          MessageRow m = stored.get(seq);
          assertNotNull(m, at + "seq " + seq + " is missing below the watermark");
          KillNineServer.Msg t = truth.bySeq().get(seq);
          assertEquals(t.id(), m.id(), at + "seq " + seq);
          assertTrue(m.rev() <= t.rev(), at + "seq " + seq + " stored at rev " + m.rev() + " above the service's");
          if (t.rev() <= row.rev()) {
            assertEquals(t.rev(), m.rev(), at + "seq " + seq + ": its change at rev " + t.rev()
                + " is at or below the revision watermark but not stored");
          }
        }
        for (MessageRow m : stored.values()) {
          if (m.seq() > row.seq()) messagesAboveWatermark++;
          KillNineServer.Msg t = truth.byId().get(m.id());
          assertNotNull(t, at + "a stored message the service does not have: " + m);
          assertTrue(t.seq() == m.seq() && m.rev() <= t.rev(), at + m + " against " + t);
        }
        firstRooms.putIfAbsent(roomId, row);
        RoomRow before = lastRooms.put(roomId, row);
        if (before != null) {
          assertTrue(row.seq() >= before.seq() && row.rev() >= before.rev(), at + "went back from " + before);
          // without eviction the range only grows: a message once stored below the watermark stays
          if (stored.size() < MAX_MESSAGES) assertTrue(row.low() <= before.low(), at + "the range lost its start");
        }
      }
      for (Map.Entry<String, Long> r : receiptRows(c).entrySet()) {
        String[] key = r.getKey().split("/");
        com.fasterxml.jackson.databind.JsonNode onService = server.room(key[0]).receipts().get(key[1]);
        // alice's own read made before the service confirmed it is kept as a pending read: it may be ahead
        boolean pending = state.pendingReads().stream().anyMatch(p -> p.roomId().equals(key[0])
            && p.userId().equals(key[1]) && p.seq() >= r.getValue());
        assertTrue(pending || onService != null && onService.get("seq").asLong() >= r.getValue(),
            "kill " + kill + ": the receipt " + r.getKey() + " at " + r.getValue() + " is ahead of " + onService);
        Long before = lastReceipts.put(r.getKey(), r.getValue());
        assertTrue(before == null || r.getValue() >= before,
            "kill " + kill + ": the receipt " + r.getKey() + " went back from " + before + " to " + r.getValue());
      }
    }
  }

  /** A pending send as alice made it: {@code alice-<n>} says {@code alice <n>} in room {@code n % rooms}. */
  private void assertWhole(StoredSend s) {
    int n = Integer.parseInt(s.clientMessageId().substring("alice-".length()));
    assertEquals("alice", s.senderId(), s.toString());
    assertEquals(rooms.get(n % rooms.size()), s.roomId(), s.toString());
    assertEquals(Collections.singletonList(MessagePart.text("alice " + n)), s.parts(), s.toString());
  }

  /** Returns whether the store (read while the client may have it open) has caught up with the service's rooms. */
  boolean caughtUp(Map<String, KillNineServer.Room> truth) throws Exception {
    if (!file().exists()) return false;
    try (Connection c = connect()) {
      Map<String, RoomRow> rows = roomRows(c);
      for (String roomId : rooms) {
        RoomRow row = rows.get(roomId);
        KillNineServer.Room t = truth.get(roomId);
        if (row == null || row.seq() != t.lastMessageSeq() || row.rev() != t.rev()) return false;
      }
      Map<String, Long> receipts = receiptRows(c);
      int onService = 0;
      for (String roomId : rooms) {
        for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e : truth.get(roomId).receipts().entrySet()) {
          onService++;
          Long seq = receipts.get(roomId + "/" + e.getKey());
          if (seq == null || seq != e.getValue().get("seq").asLong()) return false;
        }
      }
      return receipts.size() == onService;
    } catch (SQLException e) {
      return false; // busy with the client's write: asked again
    }
  }

  /**
   * Asserts that the closed store equals the service: the watermarks are the rooms' last seq and revision, the
   * store answers every page of each room's range (from where its delivery started, its position when the store
   * first held it, or below where older messages were kept since) with the service's messages at their latest
   * revision, the
   * receipts are the service's, and no send is pending.
   */
  void equalsService(Map<String, KillNineServer.Room> truth) throws Exception {
    Map<String, RoomRow> rows;
    try (Connection c = connect()) {
      rows = roomRows(c);
    }
    ChatStore store = SqliteChatStore.provider(dir).open("alice");
    try {
      StoredState state = store.load();
      assertEquals(List.of(), state.sends(), "sends left in the outbox");
      Map<String, Receipt> receipts = new HashMap<>();
      for (Receipt r : state.receipts()) receipts.put(r.roomId() + "/" + r.userId(), r);
      for (String roomId : rooms) {
        KillNineServer.Room t = truth.get(roomId);
        RoomRow row = rows.get(roomId);
        assertNotNull(row, "room " + roomId + " is not stored");
        RoomRow first = firstRooms.get(roomId);
        // the range may only grow downwards: a message below it that the store keeps later (the answer of one of
        // alice's own sends, retried from the outbox after a kill; it is history at the position the room started
        // at) extends it
        if (first != null) {
          assertTrue(row.low() <= first.low(), "room " + roomId + ": the range's start rose from " + first.low()
              + " to " + row.low());
        }
        List<KillNineServer.Msg> stored = new ArrayList<>();
        // pages going back from the watermark, none below the range (the store answers those from the service)
        for (long to = row.seq(); to >= row.low(); ) {
          int n = (int) Math.min(100, to - row.low() + 1);
          MessagePage page = store.messages(roomId, MessageQuery.before(to + 1, n));
          assertNotNull(page, "room " + roomId + " " + row + ": the store does not hold the page before " + (to + 1));
          List<KillNineServer.Msg> older = new ArrayList<>();
          for (Message m : page.messages()) {
            older.add(new KillNineServer.Msg(m.id(), m.roomId(), m.seq(), m.rev(), m.senderId(), m.text(),
                m.clientMessageId(), m.isDeleted()));
          }
          stored.addAll(0, older);
          to -= n;
        }
        List<KillNineServer.Msg> kept = new ArrayList<>(t.bySeq().values());
        kept.removeIf(m -> m.seq() < row.low());
        assertEquals(kept, stored, "room " + roomId + ": the store's range " + row + " against the service");
        assertEquals(t.receipts().keySet().size(),
            receipts.keySet().stream().filter(k -> k.startsWith(roomId + "/")).count(), "room " + roomId + " receipts");
        for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e : t.receipts().entrySet()) {
          Receipt r = receipts.get(roomId + "/" + e.getKey());
          assertNotNull(r, "room " + roomId + ": no receipt of " + e.getKey());
          assertEquals(e.getValue().get("seq").asLong(), r.seq(), "room " + roomId + " receipt of " + e.getKey());
          assertEquals(e.getValue().get("messageId").asText(), r.messageId());
        }
      }
    } finally {
      store.close();
    }
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + file().getAbsolutePath());
  }

  private static Map<String, RoomRow> roomRows(Connection c) throws SQLException {
    Map<String, RoomRow> rows = new HashMap<>();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT id, low_seq, seq_watermark, rev_watermark FROM rooms")) {
      while (r.next()) rows.put(r.getString(1), new RoomRow(r.getLong(2), r.getLong(3), r.getLong(4)));
    }
    return rows;
  }

  private static List<MessageRow> messageRows(Connection c) throws SQLException {
    List<MessageRow> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT id, room_id, seq, rev, deleted FROM messages")) {
      while (r.next()) {
        rows.add(new MessageRow(r.getString(1), r.getString(2), r.getLong(3), r.getLong(4), r.getInt(5) != 0));
      }
    }
    return rows;
  }

  private static Map<String, Long> receiptRows(Connection c) throws SQLException {
    Map<String, Long> rows = new HashMap<>();
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT room_id, user_id, seq FROM receipts")) {
      while (r.next()) rows.put(r.getString(1) + "/" + r.getString(2), r.getLong(3));
    }
    return rows;
  }
}
