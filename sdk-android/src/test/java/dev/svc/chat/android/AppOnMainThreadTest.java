package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.os.Looper;
import android.os.StrictMode;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Svc;
import dev.svc.chat.store.sql.SqlDatabase;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.SQLiteMode;

/**
 * An app that uses the SDK from the main thread, as the docs show (SvcAndroid installed, client options with
 * main-thread callbacks and the Android store, connect, send and read from the main thread, callbacks run on
 * it), under StrictMode's disk policy with the death penalty there: the store is opened, written and read on
 * the client's I/O queue, never on the main thread. No service answers (the device is offline), so the send
 * stays pending in the store. ({@link StoreOffMainThreadTest} shows that the policy catches SQLite on the main
 * thread under Robolectric.)
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
@SQLiteMode(SQLiteMode.Mode.LEGACY)
public class AppOnMainThreadTest {
  private StrictMode.ThreadPolicy before;
  private final List<String> storeCallsOnMain = new CopyOnWriteArrayList<>();
  private final CountDownLatch sendStored = new CountDownLatch(1);
  private final CountDownLatch pageAsked = new CountDownLatch(1);
  private SvcAndroid chat;
  private ChatClient client;

  @Before
  public void setUp() {
    before = StrictMode.getThreadPolicy();
  }

  @After
  public void tearDown() {
    StrictMode.setThreadPolicy(before);
    if (client != null) client.close();
    if (chat != null) chat.close();
  }

  private static String unreachableApiUrl() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return "http://127.0.0.1:" + s.getLocalPort() + "/v1"; // closed again: connections are refused
    }
  }

  /** A store that touches the database in every call and notes the calls made on the main thread. */
  private final class DiskStore extends DatabaseOnlyStore {
    DiskStore(SqlDatabase db) throws dev.svc.chat.store.StoreException {
      super(db);
      note("open");
      db.update("CREATE TABLE IF NOT EXISTS writes (n INTEGER)");
    }

    private void note(String call) {
      if (Looper.myLooper() == Looper.getMainLooper()) storeCallsOnMain.add(call);
    }

    @Override
    public dev.svc.chat.store.StoredState load() {
      note("load");
      touch();
      return dev.svc.chat.store.StoredState.empty();
    }

    @Override
    public void write(dev.svc.chat.store.StoreWrite write) {
      note("write");
      try {
        db.update("INSERT INTO writes VALUES (?)", write.sends().size());
      } catch (dev.svc.chat.store.StoreException e) {
        throw new AssertionError(e);
      }
      if (!write.sends().isEmpty()) sendStored.countDown();
    }

    @Override
    public dev.svc.chat.MessagePage messages(String roomId, MessageQuery query) {
      note("messages");
      touch();
      pageAsked.countDown();
      return null; // not stored: the client asks the service
    }

    @Override
    public dev.svc.chat.store.RoomDigest digest(String roomId, String userId, long readSeq, int recent, int limit) {
      note("digest");
      touch();
      return null;
    }

    @Override
    public List<dev.svc.chat.store.StoredRoom> rooms() {
      note("rooms");
      touch();
      return List.of();
    }

    @Override
    public void clear() {
      note("clear");
    }

    private void touch() {
      try {
        db.query("SELECT count(*) FROM writes", row -> { });
      } catch (dev.svc.chat.store.StoreException e) {
        throw new AssertionError(e);
      }
    }
  }

  @Test
  public void theMainThreadNeverTouchesTheDisk() throws Exception {
    String apiUrl = unreachableApiUrl();
    StrictMode.setThreadPolicy(new StrictMode.ThreadPolicy.Builder()
        .detectDiskReads().detectDiskWrites().penaltyDeath().build());

    // Application.onCreate
    chat = SvcAndroid.install(RuntimeEnvironment.getApplication());
    AndroidChatStore store = AndroidChatStore.provider(RuntimeEnvironment.getApplication())
        .withSchema((db, maxMessages, maxRooms) -> new DiskStore(db));
    client = Svc.init(SvcAndroid.options(apiUrl).store(store).logger(AndroidChatLogger.create()).build());
    List<String> errors = new CopyOnWriteArrayList<>();
    client.on(EventType.CLIENT_ERROR, e -> errors.add(e.kind().name()));

    // an activity
    Robolectric.buildActivity(Activity.class).setup();
    client.connect("alice", "a-token");
    client.sendText("room-1", "typed in a tunnel");
    client.getMessages("room-1", MessageQuery.latest(20));

    assertTrue("the send was not stored", sendStored.await(30, TimeUnit.SECONDS));
    assertTrue("the page was not looked up in the store", pageAsked.await(30, TimeUnit.SECONDS));
    shadowOf(Looper.getMainLooper()).idle(); // the callbacks queued so far run on the main thread, under the policy
    assertEquals(List.of(), storeCallsOnMain);
    assertEquals("no store failure reported", List.of(), errors);
  }
}
