package dev.svc.chat.android;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import android.app.Application;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.sql.SqlDatabase;
import java.io.File;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
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
 * The contract of {@link SqlDatabase} on the framework's SQLite, through {@link AndroidChatStore}'s opening:
 * typed arguments, row reading, change counts, transactions, the schema version, and failures mapped to the
 * store's kinds (a corrupt file is reported, not deleted). Robolectric's legacy SQLite (sqlite4java, shipped in
 * its jar) runs the framework's code over a real SQLite; its native mode needs a runtime the offline build
 * lacks.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
@SQLiteMode(SQLiteMode.Mode.LEGACY)
public class AndroidSqlDatabaseTest {
  private Application app;
  private AndroidChatStore provider;
  private final List<SqlDatabase> opened = new ArrayList<>();

  @Before
  public void setUp() {
    app = RuntimeEnvironment.getApplication();
    provider = AndroidChatStore.provider(app).withSchema((db, maxMessages, maxRooms) -> {
      opened.add(db);
      return new DatabaseOnlyStore(db);
    });
  }

  @After
  public void tearDown() {
    for (SqlDatabase db : opened) db.close();
  }

  private SqlDatabase open(String user) throws StoreException {
    provider.open(user);
    return opened.get(opened.size() - 1);
  }

  /** Returns the first {@code columns} columns of every row as text, row after row. */
  private static List<String> texts(SqlDatabase db, int columns, String sql, Object... args) throws StoreException {
    List<String> out = new ArrayList<>();
    db.query(sql, row -> {
      for (int i = 0; i < columns; i++) out.add(row.text(i));
    }, args);
    return out;
  }

  @Test
  public void argumentsAreBoundWithTheirTypeInStatementsAndQueries() throws Exception {
    SqlDatabase db = open("alice");
    db.update("CREATE TABLE t (i, s, b, n)");
    byte[] blob = {0, 1, 2, (byte) 0xff};
    assertEquals(1, db.update("INSERT INTO t VALUES (?, ?, ?, ?)", 5_000_000_000L, "5", blob, null));
    assertEquals(1, db.update("INSERT INTO t VALUES (?, ?, ?, ?)", 7, "x", null, null));

    assertEquals(List.of("integer", "text", "blob", "null"),
        texts(db, 4, "SELECT typeof(i), typeof(s), typeof(b), typeof(n) FROM t WHERE s = ?", "5"));
    // rawQuery would bind these as text: typeof would say "text" and the integer compare would miss
    assertEquals(List.of("integer", "integer", "blob", "text", "null"),
        texts(db, 5, "SELECT typeof(?), typeof(?), typeof(?), typeof(?), typeof(?)", 1L, 2, blob, "s", null));
    assertEquals(List.of("5"), texts(db, 1, "SELECT s FROM t WHERE i = ? AND typeof(?) = 'integer'", 5_000_000_000L, 1L));

    List<byte[]> blobs = new ArrayList<>();
    db.query("SELECT hex(b) FROM t WHERE i = ?", row -> blobs.add(row.text(0).getBytes(StandardCharsets.US_ASCII)),
        5_000_000_000L);
    assertArrayEquals("000102FF".getBytes(StandardCharsets.US_ASCII), blobs.get(0));
  }

  @Test
  public void rowsReadTextIntegersAndNulls() throws Exception {
    SqlDatabase db = open("alice");
    db.update("CREATE TABLE t (id INTEGER, s TEXT)");
    db.update("INSERT INTO t VALUES (?, ?)", 1, "one");
    db.update("INSERT INTO t VALUES (?, ?)", null, null);
    List<String> seen = new ArrayList<>();
    db.query("SELECT id, s FROM t ORDER BY id IS NULL, id", row ->
        seen.add(row.integer(0) + "/" + row.isNull(0) + "/" + row.text(1) + "/" + row.isNull(1)));
    assertEquals(List.of("1/false/one/false", "0/true/null/true"), seen);
  }

  @Test
  public void updateCountsTheRowsItChangedAndZeroForOtherStatements() throws Exception {
    SqlDatabase db = open("alice");
    assertEquals(0, db.update("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
    for (int i = 1; i <= 3; i++) assertEquals(1, db.update("INSERT INTO t (id, v) VALUES (?, 'a')", i));
    assertEquals(2, db.update("UPDATE t SET v = ? WHERE id >= ?", "b", 2));
    assertEquals("a DDL after an UPDATE changes nothing", 0, db.update("CREATE INDEX t_v ON t (v)"));
    assertEquals(0, db.update("UPDATE t SET v = 'c' WHERE id > 99"));
    assertEquals(0, db.update("PRAGMA foreign_keys = ON")); // a PRAGMA, even one that returns a row, runs
    assertEquals(3, db.update("DELETE FROM t"));
  }

  @Test
  public void aTransactionCommitsWholeOrRollsBack() throws Exception {
    SqlDatabase db = open("alice");
    db.update("CREATE TABLE t (id INTEGER PRIMARY KEY)");
    db.begin();
    db.update("INSERT INTO t VALUES (1)");
    db.update("INSERT INTO t VALUES (2)");
    db.rollback();
    assertEquals(List.of("0"), texts(db, 1, "SELECT count(*) FROM t"));

    db.begin();
    db.update("INSERT INTO t VALUES (1)");
    try {
      db.update("INSERT INTO t VALUES (1)"); // the primary key refuses it
      fail("a duplicate key was accepted");
    } catch (StoreException e) {
      assertEquals(StoreException.Kind.IO, e.kind());
    }
    db.rollback();
    assertEquals(List.of("0"), texts(db, 1, "SELECT count(*) FROM t"));

    db.begin();
    db.update("INSERT INTO t VALUES (3)");
    db.commit();
    db.rollback(); // no transaction: nothing
    assertEquals(List.of("3"), texts(db, 1, "SELECT group_concat(id) FROM t"));
  }

  @Test
  public void theSchemaVersionStartsAtZeroAndIsSetWithinTheTransaction() throws Exception {
    SqlDatabase db = open("alice");
    assertEquals(0, db.schemaVersion());
    db.begin();
    db.setSchemaVersion(1);
    db.rollback();
    assertEquals(0, db.schemaVersion());
    db.begin();
    db.setSchemaVersion(2);
    db.commit();
    db.close();
    assertEquals(2, open("alice").schemaVersion());
    assertEquals("another user's database is another file", 0, open("bob").schemaVersion());
  }

  @Test
  public void theDatabaseIsInWriteAheadLoggingModeInTheNoBackupDirectory() throws Exception {
    SqlDatabase db = open("alice");
    assertEquals(List.of("wal"), texts(db, 1, "PRAGMA journal_mode"));
    assertEquals("a new database holds no table (no android_metadata)", List.of("0"),
        texts(db, 1, "SELECT count(*) FROM sqlite_master"));
    File file = provider.databaseFile("alice");
    assertTrue(file.isFile());
    assertEquals(new File(app.getNoBackupFilesDir(), "svc-chat-store"), file.getParentFile());
    assertEquals(AndroidChatStore.userKey("alice") + ".db", file.getName());
    assertFalse(file.getName().contains("alice"));
  }

  @Test
  public void aFileThatIsNotADatabaseIsReportedCorruptAndKept() throws Exception {
    File file = provider.databaseFile("alice");
    assertTrue(file.getParentFile().mkdirs());
    byte[] garbage = new byte[8192];
    for (int i = 0; i < garbage.length; i++) garbage[i] = (byte) (i * 31 + 7);
    try (FileOutputStream out = new FileOutputStream(file)) {
      out.write(garbage);
    }
    try {
      open("alice");
      fail("a file that is not a database opened");
    } catch (StoreException e) {
      assertEquals(e.toString(), StoreException.Kind.CORRUPT, e.kind());
    }
    assertTrue("Android's default handler would have deleted it", file.isFile());
    assertArrayEquals(garbage, Files.readAllBytes(file.toPath()));

    provider.delete("alice"); // what the client does next
    assertFalse(file.exists());
    assertEquals(0, open("alice").schemaVersion());
  }

  @Test
  public void failuresAreStoreExceptionsAndAHandlersOwnFailureStopsTheQuery() throws Exception {
    SqlDatabase db = open("alice");
    try {
      db.update("CREATE TABLE");
      fail("a syntax error ran");
    } catch (StoreException e) {
      assertEquals(StoreException.Kind.IO, e.kind());
    }
    db.update("CREATE TABLE t (id INTEGER)");
    db.update("INSERT INTO t VALUES (1)");
    db.update("INSERT INTO t VALUES (2)");
    StoreException stop = new StoreException(StoreException.Kind.CORRUPT, "bad row", null);
    List<Long> seen = new ArrayList<>();
    try {
      db.query("SELECT id FROM t ORDER BY id", row -> {
        seen.add(row.integer(0));
        throw stop;
      });
      fail("the handler's failure was lost");
    } catch (StoreException e) {
      assertSame(stop, e);
    }
    assertEquals(List.of(1L), seen);
    try {
      db.update("INSERT INTO t VALUES (?)", 1.5);
      fail("a double was bound");
    } catch (IllegalArgumentException expected) {
      // the interface takes String, Long, Integer, byte[] and null
    }

    db.close();
    try {
      db.query("SELECT 1", row -> { });
      fail("a closed database answered");
    } catch (StoreException e) {
      assertEquals(StoreException.Kind.IO, e.kind());
    }
    db.close(); // again: nothing
  }

  @Test
  public void deleteRemovesTheDatabaseAndItsLogAndNothingElse() throws Exception {
    SqlDatabase alice = open("alice");
    alice.update("CREATE TABLE t (id INTEGER)");
    alice.update("INSERT INTO t VALUES (1)");
    alice.close();
    SqlDatabase bob = open("bob");
    bob.update("CREATE TABLE b (id INTEGER)");
    bob.close();
    File file = provider.databaseFile("alice");
    assertTrue(file.isFile());

    provider.delete("alice");
    File[] left = file.getParentFile().listFiles((dir, name) -> name.startsWith(AndroidChatStore.userKey("alice")));
    assertEquals(0, left.length);
    assertTrue(provider.databaseFile("bob").isFile());
    provider.delete("alice"); // nothing there: fine
  }

  @Test
  public void theProviderTouchesNoFileUntilOpen() {
    File root = new File(app.getNoBackupFilesDir(), AndroidChatStore.DIRECTORY);
    assertFalse(root.exists());
    AndroidChatStore lazy = AndroidChatStore.builder(app).maxMessagesPerRoom(10).maxRooms(2).build();
    assertFalse(root.exists());
    assertEquals("AndroidChatStore[maxMessagesPerRoom=10, maxRooms=2]", lazy.toString());
    try {
      AndroidChatStore.builder(app).maxMessagesPerRoom(0);
      fail("no bound accepted");
    } catch (IllegalArgumentException expected) {
      // at least one message per room
    }
  }
}
