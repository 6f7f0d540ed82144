package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.GatedExecutor;
import dev.svc.chat.testing.GatewaySession;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * close(): releases what the client created, keeps what it was given. The SDK's threads are shared by every
 * client of the JVM; with no other client open they all end soon after close().
 */
class CloseTest {
  private FakeGateway gateway;

  private final java.util.Set<Thread> before = new java.util.HashSet<>();

  @BeforeEach
  void setUp() throws Exception {
    before.addAll(Thread.getAllStackTraces().keySet());
    gateway = new FakeGateway();
  }

  @AfterEach
  void tearDown() throws Exception {
    gateway.close();
  }

  private static GatewaySession connect(ChatClient client, FakeGateway gateway) throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    return session;
  }

  /**
   * Returns the live threads the SDK may have made: ours by name, and any non-daemon OkHttp thread that
   * did not exist before the test (other tests' leftovers are not this test's business).
   */
  private List<String> sdkThreads() {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (!t.isAlive() || before.contains(t)) continue;
      String n = t.getName();
      if (n.startsWith("svc-chat-") || (n.startsWith("OkHttp") && !t.isDaemon())) names.add(n);
    }
    return names;
  }

  @Test
  void closeDisconnectsAndLeavesNoThreadBehind() throws Exception {
    ChatClient client = Svc.init(gateway.apiUrl());
    EventRecorder events = EventRecorder.attach(client);
    gateway.enqueueRest(new MockResponse().setBody("{\"rooms\":[]}")); // the recovery's listing
    gateway.enqueueRest(new MockResponse().setBody("{\"rooms\":[]}"));
    GatewaySession session = connect(client, gateway);
    Await.value(client.listRooms());
    // the threads are shared by all clients of the JVM (and may predate this test); the socket's reader is
    // live, named by OkHttp after its call while it runs (no REST call is under way now)
    String reader = "OkHttp " + gateway.apiUrl().replaceFirst("/v1.*$", "/"); // this gateway's, not another test's
    assertTrue(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.isAlive()
        && t.getName().startsWith(reader)), "the socket should have a reader thread while open");

    client.close();
    assertEquals("41", session.nextNonPong());
    assertEquals("<close 1000>", session.nextFrame());
    assertEquals(ConnectionState.CLOSED, client.state());
    events.awaitState(ConnectionState.CLOSED);
    for (String thread : events.threads) assertTrue(thread.startsWith("svc-chat-callbacks-"), thread);
    Await.until("the SDK's threads to end, still alive: " + sdkThreads(), () -> sdkThreads().isEmpty());
  }

  @Test
  void closeIsIdempotentAndLaterCallsFail() throws Exception {
    ChatClient client = Svc.init(gateway.apiUrl());
    connect(client, gateway);
    client.close();
    client.close();
    Await.failure(client.connect("alice", "good-jwt"), ChatStateException.class);
    Await.failure(client.joinRoom("r1"), ChatStateException.class);
    Await.failure(client.listRooms(), ChatStateException.class);
    Await.value(client.disconnect());
  }

  @Test
  void closeFailsPendingFutures() throws Exception {
    ChatClient client = Svc.init(gateway.apiUrl());
    GatewaySession session = connect(client, gateway);
    CompletableFuture<Room> joined = client.joinRoom("r1");
    session.nextEmit("join-room");
    client.close();
    Await.failure(joined, TransportException.class);
  }

  @Test
  void closeKeepsWhatItWasGiven() throws Exception {
    OkHttpClient shared = new OkHttpClient();
    GatedExecutor executor = new GatedExecutor(2);
    try {
      ChatClient client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).okHttpClient(shared)
          .callbackExecutor(executor).build());
      connect(client, gateway);
      client.close();
      assertFalse(shared.dispatcher().executorService().isShutdown());
      assertFalse(executor.isShutdown());
      gateway.enqueueRest(new MockResponse().setBody("still here"));
      try (Response r = shared.newCall(new Request.Builder().url(gateway.apiUrl() + "/x").build()).execute()) {
        assertEquals("still here", r.body().string());
      }
    } finally {
      executor.close();
      shared.dispatcher().executorService().shutdown();
      shared.connectionPool().evictAll();
    }
  }

  @Test
  void closeBlocksAboutOneSecondAtMostInAll() throws Exception {
    gateway.answerClose = false; // the close handshake is never answered
    CountDownLatch stuck = new CountDownLatch(1);
    AtomicBoolean closing = new AtomicBoolean();
    ExecutorService appThread = Executors.newSingleThreadExecutor();
    // an app executor that is slow to take work while the client closes: the closing task on the engine is slow
    Executor slow = task -> {
      if (closing.get()) {
        try {
          stuck.await(2 * FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS); // released in finally
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      appThread.execute(task);
    };
    ChatClient client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false)
        .callbackExecutor(slow).build());
    GatewaySession session = null;
    try {
      client.on(EventType.CONNECTION_STATE, change -> { });
      session = connect(client, gateway);
      closing.set(true);
      long start = System.nanoTime();
      client.close();
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      // the grace is 1 s in all (RealtimeEngine.CLOSE_GRACE_MILLIS); the slack above it is for a loaded machine,
      // which may hold a thread back for seconds; a close that waited for the stuck executor would take a minute
      assertTrue(tookMillis < 5_000, "close() blocked " + tookMillis + " ms, not about one second");
      assertEquals(ConnectionState.CLOSED, client.state());
    } finally {
      stuck.countDown();
      appThread.shutdownNow();
      if (session != null) session.close(); // ends the gateway's side, which waited for its close to be answered
    }
  }

  @Test
  void aJvmWithAClosedClientExitsAtOnce() throws Exception {
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        ExitProbe.class.getName(), gateway.apiUrl())
        .redirectErrorStream(true).start();
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    // below the minute OkHttp's idle threads would keep a JVM alive if they were not daemons, but time enough
    // for a child JVM to start on a loaded machine
    boolean exited = p.waitFor(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    String output = new String(p.getInputStream().readAllBytes());
    if (!exited) p.destroyForcibly();
    assertTrue(exited, "the JVM did not exit after close(): " + output);
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.contains("closed in "), output);
  }

  /** The main of {@link #aJvmWithAClosedClientExitsAtOnce}: connect, close, return. */
  public static final class ExitProbe {
    public static void main(String[] args) throws Exception {
      ChatClient client = Svc.init(args[0]);
      client.connect("alice", "good-jwt").get(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      long start = System.nanoTime();
      client.close();
      System.out.println("closed in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
  }
}
