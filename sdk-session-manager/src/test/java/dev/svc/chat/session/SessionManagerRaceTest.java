package dev.svc.chat.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.ConnectionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code stop()} and {@code start()} racing a fetch that completes, or a connect under way, on another thread.
 * The interleavings are forced with latches in the fake client's {@code connect} and with fetch futures the
 * test completes: no timing.
 */
class SessionManagerRaceTest {
  private static final long MINUTE = 60_000;
  private final VirtualScheduler time = new VirtualScheduler();
  private final List<FakeChatClient> clients = new CopyOnWriteArrayList<>();
  private final List<CompletableFuture<Session>> fetches = new CopyOnWriteArrayList<>();
  private final AtomicInteger sessions = new AtomicInteger();
  private SessionManager manager;
  /** When set, the next client created holds its first connect on these latches. */
  private volatile CountDownLatch gateEntered;
  private volatile CountDownLatch gateRelease;

  @AfterEach
  void tearDown() {
    if (manager != null) manager.close();
  }

  /** A manager whose every fetch is a future the test completes ({@link #fetches}). */
  private SessionManager manager() {
    manager = SessionManager.builder(() -> {
      CompletableFuture<Session> f = new CompletableFuture<>();
      fetches.add(f);
      return f;
    }, s -> { }).scheduler(time).callbackExecutor(Runnable::run).clientFactory(options -> {
      FakeChatClient c = new FakeChatClient(options);
      c.connectRelease = gateRelease;
      c.connectEntered = gateEntered;
      clients.add(c);
      return c;
    }).build();
    return manager;
  }

  private Session session() {
    int n = sessions.incrementAndGet();
    return Session.builder("jwt-" + n, "http://127.0.0.1:1/v1", "alice", time.nowMillis() + 60 * MINUTE).build();
  }

  /** Runs {@code action} on a new thread; the returned thread is joined by {@link #join}. */
  private static Thread onAnotherThread(Runnable action) {
    Thread t = new Thread(action, "race-test");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void join(Thread t) throws InterruptedException {
    t.join(TimeUnit.SECONDS.toMillis(30));
    assertTrue(!t.isAlive(), "the racing thread finished");
  }

  @Test
  void stopWhileTheFetchedSessionIsConnectingLeavesTheClientDisconnected() throws Exception {
    manager().start();
    assertEquals(1, fetches.size());
    // the fetch completes on another thread, whose connect is held at its entry while the app stops
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    gateRelease = release;
    gateEntered = entered;
    Thread fetchThread = onAnotherThread(() -> fetches.get(0).complete(session()));
    assertTrue(entered.await(30, TimeUnit.SECONDS), "the fetched session is being connected");
    manager.stop();
    assertEquals(SessionStatus.IDLE, manager.state().status());
    release.countDown();
    join(fetchThread);

    FakeChatClient client = clients.get(0);
    assertEquals(ConnectionState.DISCONNECTED, client.state(), "calls: " + client.calls);
    assertEquals("disconnect", client.calls.get(client.calls.size() - 1), "calls: " + client.calls);
    assertEquals(SessionStatus.IDLE, manager.state().status());
  }

  @Test
  void stopWhileStartConnectsWithTheHeldSessionLeavesTheClientDisconnected() throws Exception {
    manager().start();
    fetches.get(0).complete(session());
    FakeChatClient client = clients.get(0);
    assertEquals(SessionStatus.READY, manager.state().status());
    manager.stop();
    time.advance(MINUTE);

    // start() reuses the held session (no fetch); its connect is held while stop() runs
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    client.connectRelease = release;
    client.connectEntered = entered;
    Thread starter = onAnotherThread(manager::start);
    assertTrue(entered.await(30, TimeUnit.SECONDS), "start() is connecting");
    manager.stop();
    release.countDown();
    join(starter);

    assertEquals(1, fetches.size());
    assertEquals(ConnectionState.DISCONNECTED, client.state(), "calls: " + client.calls);
    assertEquals(SessionStatus.IDLE, manager.state().status());
  }

  @Test
  void aFetchCompletingAfterStopNeverConnects() {
    manager().start();
    manager.stop();
    fetches.get(0).complete(session());
    assertEquals(SessionStatus.IDLE, manager.state().status());
    for (FakeChatClient c : clients) {
      assertEquals(List.of(), c.tokens, "no connect after stop()");
      assertEquals(ConnectionState.DISCONNECTED, c.state());
    }
    assertEquals(-1, time.pendingDelay(), "no refresh timer while stopped");
  }

  @Test
  void startAgainWhileTheFetchOfAStoppedRunIsUnderWayConnectsWhenItCompletes() {
    manager().start();
    manager.stop();
    manager.start(); // the fetch of the first run is still under way: it serves this run
    fetches.get(fetches.size() - 1).complete(session());
    for (CompletableFuture<Session> f : fetches) {
      if (!f.isDone()) f.complete(session());
    }
    assertEquals(SessionStatus.READY, manager.state().status(), "not stuck in LOADING");
    FakeChatClient client = clients.get(0);
    assertEquals(ConnectionState.CONNECTED, client.state());
    assertEquals(55 * MINUTE, time.pendingDelay(), "the refresh timer runs");
  }

  @Test
  void stopWhileAScheduledRefreshHandsItsTokenOverLeavesTheClientDisconnected() throws Exception {
    manager().start();
    fetches.get(0).complete(session());
    FakeChatClient client = clients.get(0);
    time.advance(55 * MINUTE); // the refresh before expiry: its fetch is under way
    assertEquals(2, fetches.size());
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    client.connectRelease = release;
    client.connectEntered = entered;
    Thread fetchThread = onAnotherThread(() -> fetches.get(1).complete(session()));
    assertTrue(entered.await(30, TimeUnit.SECONDS), "the refreshed token is being handed over");
    manager.stop(); // the app goes to the background as the refresh returns
    release.countDown();
    join(fetchThread);

    assertEquals(List.of("connect", "update", "disconnect"), client.calls, "a refresh never connects");
    assertEquals(ConnectionState.DISCONNECTED, client.state());
    assertEquals(SessionStatus.IDLE, manager.state().status());
  }
}
