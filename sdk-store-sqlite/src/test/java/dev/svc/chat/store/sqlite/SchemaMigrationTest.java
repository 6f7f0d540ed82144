package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.T0;
import static dev.svc.chat.store.sqlite.Fixtures.message;
import static dev.svc.chat.store.sqlite.Fixtures.range;
import static dev.svc.chat.store.sqlite.Fixtures.roomIds;
import static dev.svc.chat.store.sqlite.Fixtures.seqs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.json.MessageJsonAdapter;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.RoomDigest;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A database of an older schema (the fixtures v1.sql to v8.sql) opened by this SDK: migrated, its data kept. */
class SchemaMigrationTest {
  /** The schema version this SDK writes. */
  private static final int SCHEMA = 9;

  @TempDir File dir;

  @Test
  void aVersion1DatabaseIsMigratedWithItsData() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    File file = provider.file("alice");
    try (Connection c = Fixtures.connect(file)) {
      createV1(c);
      Statement s = c.createStatement();
      s.executeUpdate("INSERT INTO rooms (id, name, members, created_at, last_message_seq, last_message_at, rev,"
          + " seq_watermark, rev_watermark) VALUES ('r', 'Room r', '[\"alice\",\"bob\"]', " + T0 + ", 10, "
          + (T0 + 10_000) + ", 10, 10, 8)");
      s.executeUpdate("INSERT INTO rooms (id, name, created_at, last_message_at) VALUES ('z-quiet', 'Quiet', " + T0
          + ", " + (T0 + 500_000) + ")");
      for (long seq = 3; seq <= 10; seq++) insertMessage(c, message("r", seq, seq)); // 1 and 2 never stored
      s.executeUpdate("INSERT INTO receipts VALUES ('r', 'bob', 'r-m9', 9, " + T0 + ")");
      s.executeUpdate("INSERT INTO sends VALUES ('c1', 'r', 'alice', '[{\"type\":\"text\",\"text\":\"hi\"}]', " + T0
          + ", 1)");
      s.executeUpdate("INSERT INTO meta VALUES ('written_at', '" + T0 + "')");
    }

    ChatStore store = provider.open("alice");
    try {
      StoredState state = store.load();
      assertEquals(T0, state.writtenAt());
      assertEquals(Arrays.asList("z-quiet", "r"), roomIds(store), "activity computed: z-quiet's last message is newer");
      assertEquals(10, state.rooms().get(1).seq());
      assertEquals(8, state.rooms().get(1).rev());
      assertEquals(Arrays.asList("alice", "bob"), state.rooms().get(1).room().memberIds());
      assertEquals(Collections.singletonList(Receipt.of("r", "bob", "r-m9", 9, T0)), state.receipts());
      assertEquals(Arrays.asList(message("r", 9, 9), message("r", 10, 10)), state.changedAbove());
      assertEquals(Collections.singletonList(MessagePart.text("hi")), state.sends().get(0).parts());
      // the range found from the rows: 3..10
      assertEquals(3, Fixtures.lowSeq(dir, "alice", "r"));
      assertEquals(range(3, 10), seqs(store.messages("r", MessageQuery.latest(8))));
      assertNull(store.messages("r", MessageQuery.latest(9)));
      RoomDigest digest = store.digest("r", "alice", 8, 4, 100);
      assertEquals(Arrays.asList(9L, 10L), seqsOf(digest.unread()), "the migration filled each message's sender");
      assertEquals(3, digest.lowSeq());
      store.write(new StoreWrite().message(message("r", 11, 11)).watermarks("r", 11, 11));
      assertEquals(range(4, 11), seqs(store.messages("r", MessageQuery.latest(8))));
    } finally {
      store.close();
    }
    assertEquals(SCHEMA, userVersion(file));
  }

  @Test
  void aVersion4DatabaseKeepsItsPendingSendsAndKeysThemByRoom() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    File file = provider.file("alice");
    try (Connection c = Fixtures.connect(file)) {
      createFrom(c, "v4.sql");
      Statement s = c.createStatement();
      s.executeUpdate("INSERT INTO sends VALUES ('c1', 'r1', 'alice', '[{\"type\":\"text\",\"text\":\"one\"}]', "
          + T0 + ", 1)");
      s.executeUpdate("INSERT INTO sends VALUES ('c2', 'r2', 'alice', '[{\"type\":\"text\",\"text\":\"two\"}]', "
          + (T0 + 1) + ", 2)");
      s.executeUpdate("INSERT INTO rooms (id, seq_watermark, rev_watermark, low_seq) VALUES ('r1', 2, 1, 1)");
      for (long seq = 1; seq <= 2; seq++) {
        Message m = message("r1", seq, seq);
        insertMessage(c, m);
        s.executeUpdate("UPDATE messages SET sender_id = 'bob' WHERE id = '" + m.id() + "'");
      }
    }

    ChatStore store = provider.open("alice");
    try {
      StoredState state = store.load();
      assertEquals(Collections.singletonList(message("r1", 2, 2)), state.changedAbove(),
          "a version 4 row above the revision watermark is taken as delivered, as that store took it");
      List<dev.svc.chat.store.StoredSend> sends = state.sends();
      assertEquals(2, sends.size(), String.valueOf(sends));
      assertEquals("r1", sends.get(0).roomId());
      assertEquals("c1", sends.get(0).clientMessageId());
      assertEquals(Collections.singletonList(MessagePart.text("one")), sends.get(0).parts());
      assertEquals(T0, sends.get(0).createdAt());
      assertEquals(1, sends.get(0).sequence());
      assertEquals("r2", sends.get(1).roomId());
      assertEquals(Collections.singletonList(MessagePart.text("two")), sends.get(1).parts());
      // keyed by room now: c1 in another room is another send, and ending one leaves the other
      store.write(new StoreWrite().send(new dev.svc.chat.store.StoredSend("r2", "c1", "alice",
          Collections.singletonList(MessagePart.text("three")), T0 + 2, 3)));
      store.write(new StoreWrite().endSend("r1", "c1"));
      List<String> left = new ArrayList<>();
      for (dev.svc.chat.store.StoredSend send : store.load().sends()) left.add(send.roomId() + "/" + send.clientMessageId());
      assertEquals(Arrays.asList("r2/c2", "r2/c1"), left);
    } finally {
      store.close();
    }
    assertEquals(SCHEMA, userVersion(file));
  }

  @Test
  void aVersion5DatabaseKeepsItsSendsAndThenStoresASendsThreadAndMentions() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    File file = provider.file("alice");
    try (Connection c = Fixtures.connect(file)) {
      createFrom(c, "v5.sql");
      c.createStatement().executeUpdate("INSERT INTO sends VALUES ('c1', 'r1', 'alice', "
          + "'[{\"type\":\"text\",\"text\":\"one\"}]', " + T0 + ", 1)");
    }
    ChatStore store = provider.open("alice");
    try {
      List<dev.svc.chat.store.StoredSend> sends = store.load().sends();
      assertEquals(1, sends.size());
      assertEquals(Collections.singletonList(MessagePart.text("one")), sends.get(0).parts());
      assertEquals(null, sends.get(0).threadId(), "a send of version 5 is a plain one");
      assertEquals(Collections.emptyList(), sends.get(0).mentions());
      store.write(new StoreWrite().send(new dev.svc.chat.store.StoredSend("r1", "c2", "alice",
          Collections.singletonList(MessagePart.text("two")), "m0", "m1", Arrays.asList("bob", "cy"), T0 + 1, 2)));
    } finally {
      store.close();
    }
    assertEquals(SCHEMA, userVersion(file));
    ChatStore again = provider.open("alice");
    try {
      dev.svc.chat.store.StoredSend reply = again.load().sends().get(1);
      assertEquals("c2", reply.clientMessageId());
      assertEquals("m0", reply.replyToId());
      assertEquals("m1", reply.threadId());
      assertEquals(Arrays.asList("bob", "cy"), reply.mentions());
    } finally {
      again.close();
    }
  }

  @Test
  void aVersion5DatabaseIsIndexedForSearch() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    File file = provider.file("alice");
    try (Connection c = Fixtures.connect(file)) {
      createFrom(c, "v5.sql");
      c.createStatement().executeUpdate("INSERT INTO rooms (id, members, seq_watermark, rev_watermark, low_seq)"
          + " VALUES ('r1', '[\"alice\",\"bob\"]', 3, 3, 1)");
      insertMessage(c, text(message("r1", 1, 1), "Le café du matin"));
      insertMessage(c, text(message("r1", 2, 2), "café noir").newBuilder().deletedAt(T0 + 9).parts(
          Collections.<MessagePart>emptyList()).build());
      insertMessage(c, text(message("r1", 3, 3), "Café crème"));
    }

    ChatStore store = provider.open("alice");
    try {
      dev.svc.chat.SearchPage page = store.search(dev.svc.chat.SearchQuery.of("CAFE"), "alice");
      assertEquals(Arrays.asList("r1-m3", "r1-m1"), StoredSearchTest.ids(page), "the deleted message is not found");
      assertEquals("\u0001Café\u0002 crème", page.results().get(0).snippet());
      store.write(new StoreWrite().message(text(message("r1", 4, 4), "un autre café")));
      assertEquals(3, store.search(dev.svc.chat.SearchQuery.of("cafe"), "alice").results().size());
    } finally {
      store.close();
    }
    assertEquals(SCHEMA, userVersion(file));
  }

  @Test
  void aVersion7DatabaseIsIndexedAgainWithRowidsByTime() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    File file = provider.file("alice");
    try (Connection c = Fixtures.connect(file)) {
      createV7(c);
      c.createStatement().executeUpdate("INSERT INTO rooms (id, members, seq_watermark, rev_watermark, low_seq)"
          + " VALUES ('r1', '[\"alice\",\"bob\"]', 4, 4, 1)");
      // arrival order is not time order: an older page kept after the newer messages
      insertIndexed(c, text(message("r1", 3, 3), "Café crème"));
      insertIndexed(c, text(message("r1", 4, 4), "un autre café"));
      insertIndexed(c, text(message("r1", 1, 1), "Le café du matin"));
      insertIndexed(c, text(message("r1", 2, 2), "thé vert"));
    }

    ChatStore store = provider.open("alice");
    try {
      dev.svc.chat.SearchPage page = store.search(dev.svc.chat.SearchQuery.of("CAFE").limit(2), "alice");
      assertEquals(Arrays.asList("r1-m4", "r1-m3"), StoredSearchTest.ids(page), "newest first");
      assertEquals("\u0001Café\u0002 crème", page.results().get(1).snippet());
      page = store.search(dev.svc.chat.SearchQuery.of("CAFE").limit(2).after(page.nextCursor()), "alice");
      assertEquals(Collections.singletonList("r1-m1"), StoredSearchTest.ids(page));
      assertEquals(Collections.singletonList("r1-m2"),
          StoredSearchTest.ids(store.search(dev.svc.chat.SearchQuery.of("thé"), "alice")));
      store.write(new StoreWrite().message(text(message("r1", 5, 5), "café encore")));
      assertEquals(4, store.search(dev.svc.chat.SearchQuery.of("cafe"), "alice").results().size());
    } finally {
      store.close();
    }
    assertEquals(SCHEMA, userVersion(file));
    try (Connection c = Fixtures.connect(file); ResultSet rs = c.createStatement().executeQuery(
        "SELECT count(*), sum(rowid >> 21 = created_at) FROM messages")) {
      rs.next();
      assertEquals(5, rs.getInt(1));
      assertEquals(5, rs.getInt(2), "every rowid holds its message's createdAt");
    }
  }

  @Test
  void aMigratedVersion7SchemaIsTheSchemaOfANewDatabase() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    try (Connection c = Fixtures.connect(provider.file("old"))) {
      createV7(c);
    }
    provider.open("old").close();
    provider.open("new").close();
    assertEquals(schema(provider.file("new")), schema(provider.file("old")));
    assertEquals(triggers(provider.file("new")), triggers(provider.file("old")));
    assertEquals(indexTable(provider.file("new")), indexTable(provider.file("old")));
  }

  @Test
  void aVersion8DatabaseIsIndexedAgainWithoutRowSizes() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    File file = provider.file("alice");
    try (Connection c = Fixtures.connect(file)) {
      createV8(c);
      c.createStatement().executeUpdate("INSERT INTO rooms (id, members, seq_watermark, rev_watermark, low_seq)"
          + " VALUES ('r1', '[\"alice\",\"bob\"]', 3, 3, 1)");
      insertIndexedV8(c, text(message("r1", 1, 1), "Le café du matin"));
      insertIndexedV8(c, text(message("r1", 2, 2), "thé vert"));
      insertIndexedV8(c, text(message("r1", 3, 3), "un autre café"));
    }
    assertTrue(indexTable(file).contains("fts5(words, tokenize='ascii')"), indexTable(file));

    ChatStore store = provider.open("alice");
    try {
      assertEquals(Arrays.asList("r1-m3", "r1-m1"),
          StoredSearchTest.ids(store.search(dev.svc.chat.SearchQuery.of("CAFE"), "alice")), "newest first");
      assertEquals(Collections.singletonList("r1-m1"),
          StoredSearchTest.ids(store.search(dev.svc.chat.SearchQuery.of("\"cafe du\""), "alice")));
      store.write(new StoreWrite().message(text(message("r1", 3, 3), "un thé").newBuilder().rev(4).build()));
      assertEquals(Arrays.asList("r1-m3", "r1-m2"),
          StoredSearchTest.ids(store.search(dev.svc.chat.SearchQuery.of("th*").room("r1"), "alice")));
      assertEquals(Collections.singletonList("r1-m1"),
          StoredSearchTest.ids(store.search(dev.svc.chat.SearchQuery.of("cafe"), "alice")), "the edit re-indexed");
    } finally {
      store.close();
    }
    assertEquals(SCHEMA, userVersion(file));
    assertTrue(indexTable(file).contains("columnsize=0"), indexTable(file));
    try (Connection c = Fixtures.connect(file); ResultSet rs = c.createStatement().executeQuery(
        "SELECT k, v FROM message_search_config WHERE k IN ('automerge', 'pgsz') ORDER BY k")) {
      List<String> config = new ArrayList<>();
      while (rs.next()) config.add(rs.getString(1) + "=" + rs.getString(2));
      assertEquals(Arrays.asList("automerge=8", "pgsz=8000"), config);
    }
  }

  @Test
  void aMigratedVersion8SchemaIsTheSchemaOfANewDatabase() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    try (Connection c = Fixtures.connect(provider.file("old"))) {
      createV8(c);
    }
    provider.open("old").close();
    provider.open("new").close();
    assertEquals(schema(provider.file("new")), schema(provider.file("old")));
    assertEquals(triggers(provider.file("new")), triggers(provider.file("old")));
    assertEquals(indexTable(provider.file("new")), indexTable(provider.file("old")));
  }

  /** A version 8 database: the fixture and its trigger. */
  private static void createV8(Connection c) throws Exception {
    createFrom(c, "v8.sql");
    c.createStatement().execute("CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN"
        + " INSERT OR IGNORE INTO message_search_gone (rowid) VALUES (old.rowid); END");
  }

  /** Stores a message as version 8 did: its row at a rowid holding its createdAt, then its index row. */
  private static void insertIndexedV8(Connection c, Message m) throws Exception {
    insertMessage(c, m);
    try (PreparedStatement p = c.prepareStatement("UPDATE messages SET rowid = ? WHERE id = ?")) {
      p.setLong(1, m.createdAt() << 21);
      p.setString(2, m.id());
      p.executeUpdate();
    }
    try (PreparedStatement p = c.prepareStatement("INSERT INTO message_search (rowid, words) VALUES (?, ?)")) {
      p.setLong(1, m.createdAt() << 21);
      p.setString(2, dev.svc.chat.internal.search.FtsText.document(m));
      p.executeUpdate();
    }
  }

  /** A version 7 database: the fixture and its trigger. */
  private static void createV7(Connection c) throws Exception {
    createFrom(c, "v7.sql");
    c.createStatement().execute("CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN"
        + " DELETE FROM message_search WHERE rowid = old.rowid; END");
  }

  /** Stores a message as version 7 did: its row, then its index row of hex words at the same rowid. */
  private static void insertIndexed(Connection c, Message m) throws Exception {
    insertMessage(c, m);
    StringBuilder words = new StringBuilder();
    for (String part : m.parts().get(0).text().split(" ")) {
      if (words.length() > 0) words.append(' ');
      String folded = dev.svc.chat.internal.search.SearchRules.fold(part);
      for (byte b : folded.getBytes(StandardCharsets.UTF_8)) words.append(String.format("%02x", b & 0xff));
    }
    try (PreparedStatement p = c.prepareStatement(
        "INSERT INTO message_search (rowid, words) SELECT rowid, ? FROM messages WHERE id = ?")) {
      p.setString(1, words.toString());
      p.setString(2, m.id());
      p.executeUpdate();
    }
  }

  private static String indexTable(File file) throws Exception {
    try (Connection c = Fixtures.connect(file); ResultSet rs = c.createStatement().executeQuery(
        "SELECT sql FROM sqlite_master WHERE name = 'message_search'")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  @Test
  void aMigratedVersion5SchemaIsTheSchemaOfANewDatabase() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    try (Connection c = Fixtures.connect(provider.file("old"))) {
      createFrom(c, "v5.sql");
    }
    provider.open("old").close();
    provider.open("new").close();
    assertEquals(schema(provider.file("new")), schema(provider.file("old")));
    assertEquals(triggers(provider.file("new")), triggers(provider.file("old")));
  }

  private static Message text(Message m, String text) {
    return m.newBuilder().parts(Collections.singletonList(MessagePart.text(text))).build();
  }

  private static List<String> triggers(File file) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = Fixtures.connect(file); ResultSet rs = c.createStatement().executeQuery(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")) {
      while (rs.next()) out.add(rs.getString(1) + ": " + rs.getString(2));
    }
    return out;
  }

  @Test
  void aMigratedVersion4SchemaIsTheSchemaOfANewDatabase() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    try (Connection c = Fixtures.connect(provider.file("old"))) {
      createFrom(c, "v4.sql");
    }
    provider.open("old").close();
    provider.open("new").close();
    assertEquals(schema(provider.file("new")), schema(provider.file("old")));
  }

  @Test
  void aMigratedSchemaIsTheSchemaOfANewDatabase() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    try (Connection c = Fixtures.connect(provider.file("old"))) {
      createV1(c);
    }
    provider.open("old").close();
    provider.open("new").close();
    assertEquals(schema(provider.file("new")), schema(provider.file("old")));
  }

  @Test
  void aNewerSchemaIsRefused() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    ChatStore store = provider.open("alice");
    store.write(Fixtures.batch("r", 1, 2));
    store.close();
    try (Connection c = Fixtures.connect(provider.file("alice"))) {
      c.createStatement().execute("PRAGMA user_version = " + (SCHEMA + 1));
    }
    StoreException e = assertThrows(StoreException.class, () -> provider.open("alice"));
    assertEquals(StoreException.Kind.NEWER_SCHEMA, e.kind());
    assertEquals(SCHEMA + 1, userVersion(provider.file("alice")), "left as it was");
    provider.delete("alice");
    provider.open("alice").close();
  }

  static void createV1(Connection c) throws Exception {
    createFrom(c, "v1.sql");
  }

  /** Runs a fixture's statements: a database as an older SDK made it. */
  static void createFrom(Connection c, String fixture) throws Exception {
    String sql;
    try (InputStream in = SchemaMigrationTest.class.getResourceAsStream(fixture)) {
      sql = new String(readAll(in), StandardCharsets.UTF_8);
    }
    Statement s = c.createStatement();
    for (String statement : sql.replaceAll("(?m)^--.*$", "").split(";")) {
      if (!statement.trim().isEmpty()) s.execute(statement);
    }
  }

  private static byte[] readAll(InputStream in) throws Exception {
    return in.readAllBytes();
  }

  private static void insertMessage(Connection c, Message m) throws Exception {
    try (PreparedStatement p = c.prepareStatement(
        "INSERT INTO messages (id, room_id, seq, rev, created_at, deleted, json) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      p.setString(1, m.id());
      p.setString(2, m.roomId());
      p.setLong(3, m.seq());
      p.setLong(4, m.rev());
      p.setLong(5, m.createdAt());
      p.setInt(6, m.isDeleted() ? 1 : 0);
      p.setString(7, Json.write(MessageJsonAdapter.INSTANCE, m));
      p.executeUpdate();
    }
  }

  private static List<Long> seqsOf(List<Message> list) {
    List<Long> out = new java.util.ArrayList<>();
    for (Message m : list) out.add(m.seq());
    return out;
  }

  static int userVersion(File file) throws Exception {
    try (Connection c = Fixtures.connect(file); ResultSet rs = c.createStatement().executeQuery("PRAGMA user_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Returns each table's columns (name, type, not null, default, key) and indexes (name, unique, columns). */
  private static TreeMap<String, List<String>> schema(File file) throws Exception {
    TreeMap<String, List<String>> schema = new TreeMap<>();
    try (Connection c = Fixtures.connect(file)) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = c.createStatement().executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
        while (rs.next()) tables.add(rs.getString(1));
      }
      for (String t : tables) {
        List<String> columns = new ArrayList<>();
        try (ResultSet rs = c.createStatement().executeQuery("PRAGMA table_info(" + t + ")")) {
          while (rs.next()) {
            columns.add(rs.getString("name") + " " + rs.getString("type") + " " + rs.getInt("notnull") + " "
                + rs.getString("dflt_value") + " " + rs.getInt("pk"));
          }
        }
        schema.put("table " + t, columns);
        List<String> indexes = new ArrayList<>();
        try (ResultSet rs = c.createStatement().executeQuery("PRAGMA index_list(" + t + ")")) {
          while (rs.next()) indexes.add(rs.getString("name") + " unique=" + rs.getInt("unique"));
        }
        Collections.sort(indexes);
        for (String index : indexes) {
          String name = index.substring(0, index.indexOf(' '));
          List<String> cols = new ArrayList<>();
          try (ResultSet rs = c.createStatement().executeQuery("PRAGMA index_info(" + name + ")")) {
            while (rs.next()) cols.add(rs.getString("name"));
          }
          schema.put("index " + index, cols);
        }
      }
    }
    return schema;
  }
}
