package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.app.Application;
import android.content.Context;
import android.net.ConnectivityManager;
import android.net.Network;
import android.os.Looper;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.session.Session;
import dev.svc.chat.session.SessionFetcher;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.session.SessionStatus;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLooper;
import org.robolectric.shadows.ShadowNetwork;

/**
 * The bindings on Robolectric's paused main looper, with time moved by {@link ShadowLooper#idleFor}: the
 * session follows the app's visibility and the network, and its callbacks arrive on the main thread.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
public class SvcAndroidTest {
  private static final Duration GRACE = Duration.ofMillis(SvcAndroid.VISIBILITY_GRACE_MILLIS);

  private final List<SessionStatus> statuses = new ArrayList<>(); // main thread only
  private final List<RecordingChatClient> clients = new CopyOnWriteArrayList<>();
  private final List<CompletableFuture<Session>> fetches = new CopyOnWriteArrayList<>();
  private volatile boolean statesOnMainThread = true;
  /** When true, the fetcher answers at once; otherwise the test completes {@link #fetches}. */
  private volatile boolean answerAtOnce = true;
  private Application app;
  private SvcAndroid chat;
  private SessionManager sessions;

  @Before
  public void setUp() {
    app = RuntimeEnvironment.getApplication();
    chat = SvcAndroid.install(app);
    sessions = SvcAndroid.sessionManagerBuilder(fetcher(), state -> {
      if (Looper.myLooper() != Looper.getMainLooper()) statesOnMainThread = false;
      statuses.add(state.status());
    }).clientFactory(options -> {
      RecordingChatClient c = new RecordingChatClient();
      clients.add(c);
      return c;
    }).build();
  }

  private SessionFetcher fetcher() {
    return () -> {
      CompletableFuture<Session> f = new CompletableFuture<>();
      fetches.add(f);
      if (answerAtOnce) f.complete(session(fetches.size()));
      return f;
    };
  }

  private static Session session(int n) {
    return Session.builder("jwt-" + n, "http://127.0.0.1:1/v1", "alice",
        System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1)).build();
  }

  @After
  public void tearDown() {
    chat.close();
    sessions.close();
  }

  private static void idleMain() {
    shadowOf(Looper.getMainLooper()).idle();
  }

  private static void idleMainFor(Duration d) {
    shadowOf(Looper.getMainLooper()).idleFor(d);
  }

  private SessionStatus status() {
    return sessions.state().status();
  }

  @Test
  public void stateCallbacksArriveOnTheMainLooper() throws Exception {
    answerAtOnce = false;
    chat.bind(sessions);
    Robolectric.buildActivity(Activity.class).setup(); // runs the main looper's tasks as it goes
    assertEquals(1, fetches.size());
    assertEquals(List.of(SessionStatus.LOADING), statuses);

    Thread network = new Thread(() -> fetches.get(0).complete(session(1)), "okhttp-like");
    network.start();
    network.join();
    assertEquals(SessionStatus.READY, status());
    assertEquals("READY is queued on the main looper, not delivered yet", List.of(SessionStatus.LOADING), statuses);
    idleMain();
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.READY), statuses);
    assertTrue(statesOnMainThread);
  }

  @Test
  public void theSessionStopsInTheBackgroundAndStartsInTheForeground() {
    chat.bind(sessions);
    assertFalse(chat.isVisible());
    assertEquals(SessionStatus.IDLE, status()); // installed in Application.onCreate: nothing started yet

    ActivityController<Activity> first = Robolectric.buildActivity(Activity.class).setup();
    idleMain();
    assertTrue(chat.isVisible());
    assertEquals(SessionStatus.READY, status());
    RecordingChatClient client = clients.get(0);
    assertEquals(List.of("jwt-1"), client.tokens);

    first.pause().stop(); // home button
    idleMainFor(GRACE.minusMillis(1));
    assertEquals(SessionStatus.READY, status());
    assertEquals(0, client.disconnects);
    idleMainFor(Duration.ofMillis(1));
    assertFalse(chat.isVisible());
    assertEquals(SessionStatus.IDLE, status());
    assertEquals(1, client.disconnects);
    assertEquals(ConnectionState.DISCONNECTED, client.state);

    first.start(); // back: the held token is still good, so no new fetch
    idleMain();
    assertEquals(SessionStatus.READY, status());
    assertEquals(List.of("jwt-1", "jwt-1"), client.tokens);
    assertEquals(1, fetches.size());
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.READY, SessionStatus.IDLE, SessionStatus.LOADING,
        SessionStatus.READY), statuses);
    assertTrue(statesOnMainThread);
    assertTrue(client.allOnMainThread);
  }

  @Test
  public void aConfigurationChangeOrAnotherActivityDoesNotDisconnect() {
    chat.bind(sessions);
    ActivityController<Activity> first = Robolectric.buildActivity(Activity.class).setup();
    idleMain();
    first.recreate(); // a rotation: stop and destroy, then a new instance created and started
    idleMainFor(GRACE.multipliedBy(3));
    ActivityController<Activity> second = Robolectric.buildActivity(Activity.class).setup();
    first.pause().stop();
    idleMainFor(GRACE.multipliedBy(3));

    assertTrue(chat.isVisible());
    assertEquals(SessionStatus.READY, status());
    assertEquals(0, clients.get(0).disconnects);
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.READY), statuses);

    second.pause().stop();
    idleMainFor(GRACE);
    assertEquals(SessionStatus.IDLE, status());
  }

  @Test
  public void aLostNetworkIsOfflineAndAReturningOneReconnectsAtOnce() throws Exception {
    ConnectivityManager connectivity = (ConnectivityManager) app.getSystemService(Context.CONNECTIVITY_SERVICE);
    assertEquals(1, shadowOf(connectivity).getNetworkCallbacks().size());
    ConnectivityManager.NetworkCallback callback = shadowOf(connectivity).getNetworkCallbacks().iterator().next();
    Network wifi = ShadowNetwork.newInstance(1);
    Network mobile = ShadowNetwork.newInstance(2);
    onConnectivityThread(() -> callback.onAvailable(wifi));

    chat.bind(sessions);
    Robolectric.buildActivity(Activity.class).setup();
    idleMain();
    assertEquals(SessionStatus.READY, status());
    RecordingChatClient client = clients.get(0);

    onConnectivityThread(() -> callback.onLost(wifi));
    idleMain();
    assertEquals(SessionStatus.OFFLINE, status()); // at once, before the socket notices
    client.moveTo(ConnectionState.RECONNECTING, ConnectionReason.TRANSPORT_ERROR); // then it notices
    assertEquals(0, client.reconnectNows);

    onConnectivityThread(() -> callback.onAvailable(mobile));
    assertEquals(1, client.reconnectNows); // the waiting reconnect starts now, not after its backoff
    client.moveTo(ConnectionState.CONNECTED, ConnectionReason.CONNECTED);
    idleMain();
    assertEquals(SessionStatus.READY, status());

    // Wi-Fi returns and becomes the default, then mobile is lost: not a loss of the network
    onConnectivityThread(() -> callback.onAvailable(wifi));
    onConnectivityThread(() -> callback.onLost(mobile));
    idleMain();
    assertEquals(SessionStatus.READY, status());
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.READY, SessionStatus.OFFLINE, SessionStatus.READY),
        statuses);
  }

  /** Runs {@code r} as Android runs network callbacks: on a thread of its own, not the main thread. */
  private static void onConnectivityThread(Runnable r) throws InterruptedException {
    Thread t = new Thread(r, "ConnectivityThread");
    t.start();
    t.join();
  }

  @Test
  public void closeUnregistersEverythingAndStopsTheSessionItWasGiven() {
    chat.bind(sessions);
    Robolectric.buildActivity(Activity.class).setup();
    idleMain();
    RecordingChatClient client = clients.get(0);
    ConnectivityManager connectivity = (ConnectivityManager) app.getSystemService(Context.CONNECTIVITY_SERVICE);

    chat.close();
    assertEquals(SessionStatus.IDLE, status());
    assertEquals(1, client.disconnects);
    assertEquals(1, client.closed.getCount()); // given, not owned: not closed
    assertTrue(shadowOf(connectivity).getNetworkCallbacks().isEmpty());
    assertNull(chat.sessionManager());

    Robolectric.buildActivity(Activity.class).setup(); // no longer followed
    idleMain();
    assertEquals(SessionStatus.IDLE, status());
    chat.close(); // again: nothing
  }

  @Test
  public void closeClosesTheSessionItCreatedOffTheMainThread() throws Exception {
    SvcAndroid owning = SvcAndroid.install(app);
    try {
      owning.bind(sessions, true);
      Robolectric.buildActivity(Activity.class).setup();
      idleMain();
      RecordingChatClient client = clients.get(0);
      owning.close();
      assertTrue("closed by the svc-chat-close thread", client.closed.await(30, TimeUnit.SECONDS));
    } finally {
      owning.close();
    }
  }

  @Test
  public void unbindHandsTheManagerBackAndAnotherCanBeBound() {
    chat.bind(sessions);
    try {
      chat.bind(sessions);
      throw new AssertionError("a second bind was accepted");
    } catch (IllegalStateException expected) {
      // one manager at a time
    }
    Robolectric.buildActivity(Activity.class).setup();
    idleMain();
    assertSame(sessions, chat.unbind());
    assertNull(chat.sessionManager());
    assertEquals(SessionStatus.READY, status()); // handed back as it was

    SessionManager next = SvcAndroid.sessionManagerBuilder(fetcher(), state -> { })
        .clientFactory(options -> new RecordingChatClient()).build();
    try {
      chat.bind(next); // the app is visible: it starts now
      assertEquals(SessionStatus.READY, next.state().status());
    } finally {
      next.close();
    }
  }

  @Test
  public void theOutboxDirectoryIsInTheFilesDirectory() {
    assertEquals(new File(app.getFilesDir(), "svc-chat-outbox"), chat.outboxDirectory());
    assertEquals(chat.outboxDirectory(), SvcAndroid.outboxDirectory(app));
  }
}
