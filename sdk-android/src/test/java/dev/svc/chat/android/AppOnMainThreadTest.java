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
import dev.svc.chat.MessagePage;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.RoomDigest;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;
import dev.svc.chat.store.sql.SqlChatStore;
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
 * it), under StrictMode's disk policy with the death penalty there: the store (the SDK's SQL store on the
 * framework's SQLite) is opened, written and read on the client's I/O queue, never on the main thread. No service answers (the device is offline), so the send
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

  /** The SDK's SQL store, noting the calls made on the main thread and telling when a send was stored. */
  private final class WatchedStore implements ChatStore {
    private final ChatStore store;

    WatchedStore(ChatStore store) {
      this.store = store;
      note("open");
    }

    private void note(String call) {
      if (Looper.myLooper() == Looper.getMainLooper()) storeCallsOnMain.add(call);
    }

    @Override
    public StoredState load() throws StoreException {
      note("load");
      return store.load();
    }

    @Override
    public MessagePage messages(String roomId, MessageQuery query) throws StoreException {
      note("messages");
      MessagePage page = store.messages(roomId, query);
      pageAsked.countDown();
      return page;
    }

    @Override
    public RoomDigest digest(String roomId, String userId, long readSeq, int recent, int limit)
        throws StoreException {
      note("digest");
      return store.digest(roomId, userId, readSeq, recent, limit);
    }

    @Override
    public void write(StoreWrite write) throws StoreException {
      note("write");
      store.write(write);
      if (!write.sends().isEmpty()) sendStored.countDown();
    }

    @Override
    public void clear() throws StoreException {
      note("clear");
      store.clear();
    }

    @Override
    public void close() {
      note("close");
      store.close();
    }

    @Override
    public List<StoredRoom> rooms() throws StoreException {
      note("rooms");
      return store.rooms();
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
        .withSchema((db, maxMessages, maxRooms) -> new WatchedStore(new SqlChatStore(db, maxMessages, maxRooms)));
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
