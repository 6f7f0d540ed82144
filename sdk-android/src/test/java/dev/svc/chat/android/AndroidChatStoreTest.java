package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import android.app.Application;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Room;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredSend;
import dev.svc.chat.store.StoredState;
import java.io.File;
import java.io.FileOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.SQLiteMode;

/**
 * The SDK's shared SQL store on Android's framework SQLite, end to end through {@link AndroidChatStore}: what is
 * written reads back equal (across a reopen, as after a restart), pages come from the stored range, the bounds
 * apply, each user has a database of their own, and a corrupt file is reported and can be deleted.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
@SQLiteMode(SQLiteMode.Mode.LEGACY)
public class AndroidChatStoreTest {
  private static final long T0 = 1_700_000_000_000L;

  private Application app;
  private final List<ChatStore> opened = new ArrayList<>();

  @Before
  public void setUp() {
    app = RuntimeEnvironment.getApplication();
  }

  @After
  public void tearDown() {
    for (ChatStore s : opened) s.close();
  }

  private ChatStore open(AndroidChatStore provider, String user) throws StoreException {
    ChatStore s = provider.open(user);
    opened.add(s);
    return s;
  }

  private static Message message(String roomId, long seq, long rev) {
    return Message.builder().id(roomId + "-m" + seq).roomId(roomId).seq(seq).rev(rev).senderId("bob")
        .clientMessageId("c-" + roomId + "-" + seq).createdAt(T0 + seq * 1000).addPart(MessagePart.text("hi " + seq))
        .build();
  }

  private static Room room(String id) {
    return Room.builder().id(id).name("Room " + id).memberIds(Arrays.asList("alice", "bob")).createdAt(T0)
        .lastMessageSeq(30).lastMessageAt(T0 + 30_000).rev(7).build();
  }

  private static StoreWrite batch(String roomId, long from, long to) {
    StoreWrite w = new StoreWrite();
    for (long s = from; s <= to; s++) w.message(message(roomId, s, s));
    return w.watermarks(roomId, to, to);
  }

  private static List<Long> seqs(MessagePage page) {
    List<Long> seqs = new ArrayList<>();
    for (Message m : page.messages()) seqs.add(m.seq());
    return seqs;
  }

  private static List<Long> range(long from, long to) {
    List<Long> list = new ArrayList<>();
    for (long s = from; s <= to; s++) list.add(s);
    return list;
  }

  @Test
  public void whatIsWrittenReadsBackAfterAReopen() throws Exception {
    AndroidChatStore provider = AndroidChatStore.provider(app);
    ChatStore store = open(provider, "alice");
    assertTrue(store.load().rooms().isEmpty());

    Message rich = message("r", 30, 30).newBuilder()
        .parts(Arrays.asList(MessagePart.text("a \"quoted\" é 😀"), MessagePart.text("second")))
        .editedAt(T0 + 5).reaction("👍", Arrays.asList("bob", "carol")).build();
    StoredSend send = new StoredSend("r", "c-pending", "alice",
        Collections.singletonList(MessagePart.text("typed in a tunnel")), T0 + 40_000, 1);
    store.write(batch("r", 1, 29).message(rich).watermarks("r", 30, 30).room(room("r")).send(send)
        .writtenAt(T0 + 50_000));
    store.close();

    store = open(provider, "alice"); // the app restarted
    StoredState state = store.load();
    assertEquals(1, state.rooms().size());
    StoredRoom r = state.rooms().get(0);
    assertEquals(room("r"), r.room());
    assertEquals(30, r.seq());
    assertEquals(30, r.rev());
    assertEquals(1, state.sends().size());
    assertEquals("c-pending", state.sends().get(0).clientMessageId());
    assertEquals(send.parts(), state.sends().get(0).parts());
    assertEquals(T0 + 50_000, state.writtenAt());

    MessagePage latest = store.messages("r", MessageQuery.latest(10));
    assertTrue(latest.fromStore());
    assertEquals(range(21, 30), seqs(latest));
    assertEquals(rich, latest.messages().get(9));
    assertEquals(range(1, 20), seqs(store.messages("r", MessageQuery.before(21, 20))));
    assertNull("newer than the watermark: the service knows", store.messages("r", MessageQuery.after(25, 10)));
    assertEquals(Collections.singletonList("r"), roomIds(store));
  }

  @Test
  public void aVersion4DatabaseKeepsItsPendingSendsAndKeysThemByRoom() throws Exception {
    AndroidChatStore provider = AndroidChatStore.provider(app);
    File file = provider.databaseFile("alice");
    file.getParentFile().mkdirs();
    android.database.sqlite.SQLiteDatabase old = android.database.sqlite.SQLiteDatabase.openDatabase(file.getPath(),
        null, android.database.sqlite.SQLiteDatabase.CREATE_IF_NECESSARY
            | android.database.sqlite.SQLiteDatabase.NO_LOCALIZED_COLLATORS);
    try {
      String sql;
      try (java.io.InputStream in = getClass().getResourceAsStream("v4.sql")) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        for (int n; (n = in.read(buffer)) > 0; ) bytes.write(buffer, 0, n);
        sql = new String(bytes.toByteArray(), "UTF-8");
      }
      for (String statement : sql.replaceAll("(?m)^--.*$", "").split(";")) {
        if (!statement.trim().isEmpty()) old.execSQL(statement);
      }
      old.execSQL("INSERT INTO sends VALUES ('c1', 'r1', 'alice', '[{\"type\":\"text\",\"text\":\"one\"}]', "
          + T0 + ", 1)");
      old.execSQL("INSERT INTO sends VALUES ('c2', 'r2', 'alice', '[{\"type\":\"text\",\"text\":\"two\"}]', "
          + (T0 + 1) + ", 2)");
    } finally {
      old.close();
    }

    ChatStore store = open(provider, "alice");
    List<StoredSend> sends = store.load().sends();
    assertEquals(String.valueOf(sends), 2, sends.size());
    assertEquals("r1", sends.get(0).roomId());
    assertEquals("c1", sends.get(0).clientMessageId());
    assertEquals(Collections.singletonList(MessagePart.text("one")), sends.get(0).parts());
    assertEquals("r2", sends.get(1).roomId());
    store.write(new StoreWrite().send(new StoredSend("r2", "c1", "alice",
        Collections.singletonList(MessagePart.text("three")), T0 + 2, 3)));
    store.write(new StoreWrite().endSend("r1", "c1"));
    store.close();

    List<String> left = new ArrayList<>();
    for (StoredSend send : open(provider, "alice").load().sends()) left.add(send.roomId() + "/" + send.clientMessageId());
    assertEquals(Arrays.asList("r2/c2", "r2/c1"), left);
  }

  @Test
  public void anEditKeptFromAPageIsNotTakenAsDeliveredAfterAReopen() throws Exception {
    AndroidChatStore provider = AndroidChatStore.provider(app);
    ChatStore store = open(provider, "alice");
    Message delivered = message("r", 2, 5).newBuilder().editedAt(T0 + 5).build();
    Message kept = message("r", 1, 6).newBuilder().editedAt(T0 + 6).build();
    store.write(batch("r", 1, 3));
    store.write(new StoreWrite().message(delivered)); // an event delivered it, out of order
    store.write(new StoreWrite().keptMessage(kept)); // a page showed it, no event did
    store.close();

    store = open(provider, "alice"); // the app restarted
    assertEquals(Collections.singletonList(delivered), store.load().changedAbove());
    assertEquals(kept, store.messages("r", MessageQuery.latest(3)).messages().get(0));
  }

  private static List<String> roomIds(ChatStore store) throws StoreException {
    List<String> ids = new ArrayList<>();
    for (StoredRoom r : store.rooms()) ids.add(r.room().id());
    return ids;
  }

  @Test
  public void aThousandMessagesAreOneWriteAndTheBoundsApply() throws Exception {
    ChatStore store = open(AndroidChatStore.builder(app).maxMessagesPerRoom(100).maxRooms(2).build(), "alice");
    store.write(batch("a", 1, 1000).room(room("a")));
    assertEquals(range(901, 1000), seqs(store.messages("a", MessageQuery.latest(100))));
    assertNull("evicted: fetched from the service again", store.messages("a", MessageQuery.before(901, 10)));

    store.write(batch("b", 1, 5).room(room("b")));
    store.write(batch("c", 1, 5).room(room("c")));
    assertEquals(2, store.rooms().size());
  }

  @Test
  public void eachUserHasADatabaseOfTheirOwnAndDeleteRemovesIt() throws Exception {
    AndroidChatStore provider = AndroidChatStore.provider(app);
    ChatStore alice = open(provider, "alice");
    alice.write(batch("r", 1, 3).room(room("r")));
    ChatStore bob = open(provider, "bob");
    assertTrue(bob.load().rooms().isEmpty());
    bob.close();
    alice.close();

    provider.delete("alice");
    assertFalse(provider.databaseFile("alice").exists());
    assertTrue(open(provider, "alice").load().rooms().isEmpty());
  }

  @Test
  public void aCorruptDatabaseIsReportedAndKeptUntilDeleted() throws Exception {
    AndroidChatStore provider = AndroidChatStore.provider(app);
    open(provider, "alice").write(batch("r", 1, 3).room(room("r")));
    for (ChatStore s : opened) s.close();
    opened.clear();
    File file = provider.databaseFile("alice");
    byte[] garbage = new byte[4096];
    Arrays.fill(garbage, (byte) 0x5a);
    try (FileOutputStream out = new FileOutputStream(file)) {
      out.write(garbage); // the header and the first page overwritten
    }
    new File(file.getPath() + "-wal").delete();
    try {
      open(provider, "alice");
      fail("a corrupt database opened");
    } catch (StoreException e) {
      assertEquals(e.toString(), StoreException.Kind.CORRUPT, e.kind());
    }
    assertTrue(file.isFile());
    provider.delete("alice");
    assertTrue(open(provider, "alice").load().rooms().isEmpty());
  }

  /** The store's schema version 1 as the SDK wrote it (the JVM store's migration fixture, v1.sql). */
  private static final String[] V1 = {
      "CREATE TABLE meta (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL)",
      "CREATE TABLE rooms (id TEXT NOT NULL PRIMARY KEY, name TEXT, members TEXT NOT NULL DEFAULT '[]', created_at"
          + " INTEGER NOT NULL DEFAULT 0, last_message_seq INTEGER NOT NULL DEFAULT 0, last_message_at INTEGER, rev"
          + " INTEGER NOT NULL DEFAULT 0, seq_watermark INTEGER NOT NULL DEFAULT -1, rev_watermark INTEGER NOT NULL"
          + " DEFAULT -1)",
      "CREATE TABLE messages (id TEXT NOT NULL PRIMARY KEY, room_id TEXT NOT NULL, seq INTEGER NOT NULL, rev INTEGER"
          + " NOT NULL, created_at INTEGER NOT NULL, deleted INTEGER NOT NULL, json TEXT NOT NULL)",
      "CREATE UNIQUE INDEX messages_room_seq ON messages (room_id, seq)",
      "CREATE TABLE receipts (room_id TEXT NOT NULL, user_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER"
          + " NOT NULL, read_at INTEGER NOT NULL, PRIMARY KEY (room_id, user_id))",
      "CREATE TABLE sends (client_message_id TEXT NOT NULL PRIMARY KEY, room_id TEXT NOT NULL, sender_id TEXT NOT"
          + " NULL, parts TEXT NOT NULL, created_at INTEGER NOT NULL, sequence INTEGER NOT NULL)",
      "CREATE INDEX sends_sequence ON sends (sequence)",
  };

  /** Writes a database of version {@code version} at {@code file} with the framework's API, as an older SDK did. */
  private static void writeDatabase(File file, int version, String... sql) {
    assertTrue(file.getParentFile().isDirectory() || file.getParentFile().mkdirs());
    android.database.sqlite.SQLiteDatabase db = android.database.sqlite.SQLiteDatabase.openDatabase(file.getPath(),
        null, android.database.sqlite.SQLiteDatabase.CREATE_IF_NECESSARY
            | android.database.sqlite.SQLiteDatabase.NO_LOCALIZED_COLLATORS);
    try {
      for (String s : sql) db.execSQL(s);
      db.setVersion(version);
    } finally {
      db.close();
    }
  }

  @Test
  public void aDatabaseOfVersion1IsMigratedAndKeepsItsRows() throws Exception {
    AndroidChatStore provider = AndroidChatStore.provider(app);
    List<String> v1 = new ArrayList<>(Arrays.asList(V1));
    v1.add("INSERT INTO rooms (id, name, members, created_at, last_message_seq, last_message_at, rev, seq_watermark,"
        + " rev_watermark) VALUES ('r', 'Room r', '[\"alice\",\"bob\"]', " + T0 + ", 2, " + (T0 + 2000)
        + ", 7, 2, 2)");
    writeDatabase(provider.databaseFile("alice"), 1, v1.toArray(new String[0]));

    ChatStore store = open(provider, "alice");
    StoredState state = store.load();
    assertEquals(1, state.rooms().size());
    assertEquals("Room r", state.rooms().get(0).room().name());
    assertEquals(2, state.rooms().get(0).seq());
    store.write(batch("r", 3, 5));
    assertEquals(range(3, 5), seqs(store.messages("r", MessageQuery.latest(3))));
    store.close();
    opened.clear();

    android.database.sqlite.SQLiteDatabase raw = android.database.sqlite.SQLiteDatabase.openDatabase(
        provider.databaseFile("alice").getPath(), null, android.database.sqlite.SQLiteDatabase.OPEN_READONLY);
    try {
      assertEquals("migrated to the version a new store gets", newStoreVersion(provider), raw.getVersion());
    } finally {
      raw.close();
    }
  }

  private int newStoreVersion(AndroidChatStore provider) throws StoreException {
    open(provider, "someone-new").close();
    android.database.sqlite.SQLiteDatabase raw = android.database.sqlite.SQLiteDatabase.openDatabase(
        provider.databaseFile("someone-new").getPath(), null, android.database.sqlite.SQLiteDatabase.OPEN_READONLY);
    try {
      assertTrue(raw.getVersion() > 1);
      return raw.getVersion();
    } finally {
      raw.close();
    }
  }

  @Test
  public void aDatabaseOfANewerSdkIsRefusedAndKept() throws Exception {
    AndroidChatStore provider = AndroidChatStore.provider(app);
    writeDatabase(provider.databaseFile("alice"), 99, "CREATE TABLE future (x)");
    try {
      open(provider, "alice");
      fail("a newer schema opened");
    } catch (StoreException e) {
      assertEquals(StoreException.Kind.NEWER_SCHEMA, e.kind());
    }
    assertTrue(provider.databaseFile("alice").isFile());
  }

  @Test
  public void clearLeavesNoTraceOfAMessageInTheFiles() throws Exception {
    AndroidChatStore provider = AndroidChatStore.provider(app);
    ChatStore store = open(provider, "alice");
    String secret = "a-secret-only-in-this-message";
    StoreWrite w = batch("r", 1, 20).room(room("r"));
    w.message(message("r", 21, 21).newBuilder().parts(Collections.singletonList(MessagePart.text(secret))).build())
        .watermarks("r", 21, 21);
    store.write(w);
    File file = provider.databaseFile("alice");
    assertTrue("written", contains(file, secret) || contains(new File(file.getPath() + "-wal"), secret));

    store.clear();
    assertTrue(store.load().rooms().isEmpty());
    assertFalse(contains(file, secret));
    // the write-ahead log is emptied by wal_checkpoint(TRUNCATE), from SQLite 3.8.8: Android 7.0 (API 24) has
    // 3.9.2, Robolectric's legacy SQLite (sqlite4java) 3.8.7, which takes it for a checkpoint that keeps the log
    if (sqliteVersionAtLeast(3, 8, 8)) assertFalse(contains(new File(file.getPath() + "-wal"), secret));
    store.write(batch("r", 1, 2).room(room("r"))); // still open and usable
    assertEquals(range(1, 2), seqs(store.messages("r", MessageQuery.latest(2))));
  }

  private static boolean sqliteVersionAtLeast(int major, int minor, int patch) {
    android.database.sqlite.SQLiteDatabase memory = android.database.sqlite.SQLiteDatabase.create(null);
    try (android.database.Cursor c = memory.rawQuery("SELECT sqlite_version()", null)) {
      assertTrue(c.moveToFirst());
      String[] v = c.getString(0).split("\\.");
      int[] have = {Integer.parseInt(v[0]), Integer.parseInt(v[1]), v.length > 2 ? Integer.parseInt(v[2]) : 0};
      int[] want = {major, minor, patch};
      for (int i = 0; i < 3; i++) if (have[i] != want[i]) return have[i] > want[i];
      return true;
    } finally {
      memory.close();
    }
  }

  private static boolean contains(File file, String text) throws java.io.IOException {
    if (!file.isFile()) return false;
    String bytes = new String(java.nio.file.Files.readAllBytes(file.toPath()), java.nio.charset.StandardCharsets.ISO_8859_1);
    return bytes.contains(text);
  }
}
