package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.app.Application;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Room;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.SearchResult;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.sql.SqlChatStore;
import dev.svc.chat.store.sql.SqlDatabase;
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
 * The offline search on Android's framework SQLite: FTS5 where the SQLite has it, else FTS4. Each path is run:
 * the one the SQLite under test takes (Robolectric's legacy SQLite has no FTS5: FTS4; its native mode needs ICU
 * data not available offline; the FTS5 path of the same store runs in sdk-store-sqlite), and FTS4 forced by a
 * database that answers as an SQLite built without FTS5; both find the same messages.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
@SQLiteMode(SQLiteMode.Mode.LEGACY)
public class AndroidStoredSearchTest {
  private static final long T0 = 1_700_000_000_000L;

  private Application app;
  private ChatStore store;
  private SqlDatabase database;

  @Before
  public void setUp() {
    app = RuntimeEnvironment.getApplication();
  }

  @After
  public void tearDown() {
    if (store != null) store.close();
  }

  /** Opens alice's store; {@code withoutFts5}: over a database that refuses FTS5, as an SQLite without it. */
  private void open(boolean withoutFts5) throws StoreException {
    store = AndroidChatStore.provider(app).withSchema((db, maxMessages, maxRooms) -> {
      database = withoutFts5 ? new WithoutFts5(db) : db;
      return new SqlChatStore(database, maxMessages, maxRooms);
    }).open("alice");
  }

  private String module() throws StoreException {
    String[] sql = {null};
    database.query("SELECT sql FROM sqlite_master WHERE name = 'message_search'", row -> sql[0] = row.text(0));
    return sql[0].toLowerCase(java.util.Locale.ROOT).contains("using fts5") ? "fts5" : "fts4";
  }

  private boolean sqliteHasFts5() throws StoreException {
    boolean[] has = {false};
    database.query("PRAGMA compile_options", row -> has[0] |= "ENABLE_FTS5".equals(row.text(0)));
    return has[0];
  }

  private static Message text(String roomId, long seq, String text) {
    return Message.builder().id(roomId + "-m" + seq).roomId(roomId).seq(seq).rev(seq).senderId("bob")
        .clientMessageId("c-" + roomId + "-" + seq).createdAt(T0 + seq * 1000).addPart(MessagePart.text(text))
        .build();
  }

  private List<String> ids(String q) throws StoreException {
    SearchPage page = store.search(SearchQuery.of(q), "alice");
    assertTrue(page.fromStore());
    List<String> out = new ArrayList<>();
    for (SearchResult r : page.results()) out.add(r.message().id());
    return out;
  }

  /** The same search on either engine: words folded, phrases, prefixes, edits, deletes, order, snippets. */
  private void searches() throws StoreException {
    Room room = Room.builder().id("r1").name("General").memberIds(Arrays.asList("alice", "bob")).createdAt(T0)
        .rev(1).build();
    store.write(new StoreWrite().room(room).message(text("r1", 1, "Le Café de la gare"))
        .message(text("r1", 2, "the release notes, draft")).message(text("r1", 3, "notes of the release"))
        .message(text("r1", 4, "Deployment at nine")).message(text("r1", 5, "שָׁלוֹם a AND b NEAR(c)")));
    assertEquals(Collections.singletonList("r1-m1"), ids("CAFE"));
    assertEquals(Collections.singletonList("r1-m2"), ids("\"release notes\""));
    assertEquals(Arrays.asList("r1-m3", "r1-m2"), ids("release notes"));
    assertEquals(Collections.singletonList("r1-m4"), ids("deploy*"));
    assertEquals(Collections.singletonList("r1-m5"), ids("שלום and near("));
    store.write(new StoreWrite().message(text("r1", 2, "the final notes").newBuilder().rev(9).editedAt(T0).build())
        .message(text("r1", 3, "gone").newBuilder().rev(9).deletedAt(T0).parts(
            Collections.<MessagePart>emptyList()).build()));
    assertEquals(Collections.<String>emptyList(), ids("release"));
    assertEquals(Collections.singletonList("r1-m2"), ids("notes"));
    assertEquals("Le \u0001Café\u0002 de la gare",
        store.search(SearchQuery.of("cafe"), "alice").results().get(0).snippet());
    SearchPage first = store.search(SearchQuery.of("de*").limit(1), "alice");
    assertEquals(Collections.singletonList("r1-m4"), idsOf(first));
    SearchPage second = store.search(SearchQuery.of("de*").limit(1).after(first.nextCursor()), "alice");
    assertEquals(Collections.singletonList("r1-m1"), idsOf(second));
    assertEquals(null, second.nextCursor());
  }

  private static List<String> idsOf(SearchPage page) {
    List<String> out = new ArrayList<>();
    for (SearchResult r : page.results()) out.add(r.message().id());
    return out;
  }

  @Test
  public void theDevicesSqliteTakesFts5WhereItHasItElseFts4() throws Exception {
    open(false);
    assertEquals(sqliteHasFts5() ? "fts5" : "fts4", module());
    searches();
  }

  @Test
  public void anSqliteWithoutFts5GetsFts4() throws Exception {
    open(true);
    assertEquals("fts4", module());
    searches();
  }

  @Test
  public void anFts4StoreStaysFts4AndSearchesAfterAReopen() throws Exception {
    open(true);
    store.write(new StoreWrite().message(text("r1", 1, "kept over a reopen")));
    store.close();
    open(false); // the table is made once: the store reads what it holds, whatever the SQLite has now
    assertEquals("fts4", module());
    assertEquals(Collections.singletonList("r1-m1"), ids("reopen"));
  }

  /** A database as an SQLite built without FTS5 answers: not compiled in, a table of that module refused. */
  private static final class WithoutFts5 implements SqlDatabase {
    private final SqlDatabase db;

    WithoutFts5(SqlDatabase db) {
      this.db = db;
    }

    @Override
    public int update(String sql, Object... args) throws StoreException {
      if (sql.toLowerCase(java.util.Locale.ROOT).contains("using fts5")) {
        throw new StoreException(StoreException.Kind.IO, "no such module: fts5", null);
      }
      return db.update(sql, args);
    }

    @Override
    public void query(String sql, RowHandler handler, Object... args) throws StoreException {
      db.query(sql.contains("'ENABLE_FTS5'") ? "SELECT 0" : sql, handler, args);
    }

    @Override
    public void begin() throws StoreException {
      db.begin();
    }

    @Override
    public void commit() throws StoreException {
      db.commit();
    }

    @Override
    public void rollback() {
      db.rollback();
    }

    @Override
    public int schemaVersion() throws StoreException {
      return db.schemaVersion();
    }

    @Override
    public void setSchemaVersion(int version) throws StoreException {
      db.setSchemaVersion(version);
    }

    @Override
    public void close() {
      db.close();
    }
  }
}
