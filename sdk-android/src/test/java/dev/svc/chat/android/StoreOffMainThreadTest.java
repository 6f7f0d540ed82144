package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import android.app.Application;
import android.os.Looper;
import android.os.StrictMode;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.sql.SqlDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.SQLiteMode;

/**
 * The store's disk work under StrictMode's disk policy with the death penalty on the main thread (the test's
 * thread under Robolectric): the provider can be made there, since it touches no file, and opening and writing
 * run on another thread. The first test shows that the policy does catch the framework's SQLite on the main
 * thread, so the others prove something.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
@SQLiteMode(SQLiteMode.Mode.LEGACY)
public class StoreOffMainThreadTest {
  private Application app;
  private StrictMode.ThreadPolicy before;
  private final List<SqlDatabase> opened = new ArrayList<>();
  private final ExecutorService io = Executors.newSingleThreadExecutor(r -> new Thread(r, "store-io"));

  @Before
  public void setUp() {
    assertTrue(Looper.getMainLooper().getThread() == Thread.currentThread());
    app = RuntimeEnvironment.getApplication();
    before = StrictMode.getThreadPolicy();
  }

  @After
  public void tearDown() throws Exception {
    StrictMode.setThreadPolicy(before);
    io.submit(() -> {
      for (SqlDatabase db : opened) db.close();
    }).get(30, TimeUnit.SECONDS);
    io.shutdown();
    assertTrue(io.awaitTermination(30, TimeUnit.SECONDS));
  }

  private static void strictOnMain() {
    StrictMode.setThreadPolicy(new StrictMode.ThreadPolicy.Builder()
        .detectDiskReads().detectDiskWrites().penaltyDeath().build());
  }

  private AndroidChatStore provider() {
    return AndroidChatStore.provider(app).withSchema((db, maxMessages, maxRooms) -> {
      db.update("CREATE TABLE IF NOT EXISTS t (id INTEGER)");
      opened.add(db);
      return new DatabaseOnlyStore(db);
    });
  }

  @Test
  public void thePolicyCatchesTheStoreOnTheMainThread() {
    AndroidChatStore provider = provider();
    strictOnMain();
    try {
      provider.open("alice");
      fail("the store opened on the main thread under the disk policy");
    } catch (RuntimeException death) {
      assertTrue(String.valueOf(death), String.valueOf(death).contains("StrictMode"));
    } catch (Exception other) {
      throw new AssertionError(other);
    }
  }

  @Test
  public void theProviderIsMadeOnTheMainThreadAndOpensAndWritesOffIt() throws Exception {
    strictOnMain();
    AndroidChatStore provider = provider(); // on main: touches no file
    Long count = io.submit(() -> {
      ChatStore store = provider.open("alice");
      SqlDatabase db = ((DatabaseOnlyStore) store).db;
      db.begin();
      db.update("INSERT INTO t VALUES (?)", 1L);
      db.commit();
      long[] n = new long[1];
      db.query("SELECT count(*) FROM t", row -> n[0] = row.integer(0));
      return n[0];
    }).get(30, TimeUnit.SECONDS);
    assertEquals(Long.valueOf(1), count);
    StrictMode.setThreadPolicy(before); // the test's own look at the disk
    assertTrue(provider.databaseFile("alice").isFile());
  }
}
