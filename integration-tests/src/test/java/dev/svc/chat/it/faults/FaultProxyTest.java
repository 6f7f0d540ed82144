package dev.svc.chat.it.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.it.faults.FaultProxy.Direction;
import dev.svc.chat.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fault proxy in front of an echo server: it forwards, cuts, stalls, slows, and cleans up after itself. */
class FaultProxyTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private EchoServer echo;
  private FaultProxy proxy;
  private final List<Socket> sockets = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    echo = new EchoServer();
    proxy = FaultProxy.start("127.0.0.1", echo.port(), 42, true);
  }

  @AfterEach
  void stop() throws Exception {
    for (Socket s : sockets) s.close();
    proxy.close();
    echo.close();
  }

  @Test
  void forwardsEveryByteBothWaysOnSeveralConnections() throws Exception {
    Random rnd = new Random(1);
    long total = 0;
    for (int c = 0; c < 3; c++) {
      Socket s = connect();
      for (int i = 0; i < 32; i++) {
        byte[] chunk = new byte[8192];
        rnd.nextBytes(chunk);
        assertArrayEquals(chunk, roundTrip(s, chunk));
        total += chunk.length;
      }
    }
    final long sent = total;
    // the counters move just after each write: the echo may overtake them
    Await.until("the byte counters", () -> proxy.stats().bytesUp() == sent && proxy.stats().bytesDown() == sent,
        proxy::stats);
    FaultProxy.Stats stats = proxy.stats();
    assertEquals(3, stats.accepted());
    assertEquals(3, stats.active());
    assertEquals(0, stats.cuts());
  }

  @Test
  void cutAllResetsEveryOpenConnectionAndNewOnesStillWork() throws Exception {
    Socket a = connect();
    Socket b = connect();
    roundTrip(a, bytes("a"));
    roundTrip(b, bytes("b"));

    assertEquals(2, proxy.cutAll());

    assertDead(a);
    assertDead(b);
    Await.until("no open connection", () -> proxy.connectionIds().isEmpty(), proxy::events);
    assertEquals(2, proxy.stats().cuts());
    assertArrayEquals(bytes("after"), roundTrip(connect(), bytes("after")));
  }

  @Test
  void cutOneCutsExactlyOneConnection() throws Exception {
    List<Socket> open = List.of(connect(), connect(), connect());
    for (Socket s : open) roundTrip(s, bytes("hi"));
    Await.until("three connections", () -> proxy.connectionIds().size() == 3, proxy::events);

    assertTrue(proxy.cutOne());

    int dead = 0;
    for (Socket s : open) {
      try {
        roundTrip(s, bytes("still there?"));
      } catch (IOException | AssertionError e) {
        dead++;
      }
    }
    assertEquals(1, dead, proxy.events().toString());
    assertEquals(2, proxy.connectionIds().size());
  }

  @Test
  void theSameSeedCutsTheSameConnection() throws Exception {
    int first = cutOneOfFive(proxy);
    try (EchoServer otherEcho = new EchoServer();
         FaultProxy other = FaultProxy.start("127.0.0.1", otherEcho.port(), 42, true)) {
      assertEquals(first, cutOneOfFive(other));
    }
  }

  private int cutOneOfFive(FaultProxy p) throws Exception {
    for (int i = 0; i < 5; i++) roundTrip(connect(p.port()), bytes("x"));
    Await.until("five connections", () -> p.connectionIds().size() == 5, p::events);
    List<Integer> before = p.connectionIds();
    assertTrue(p.cutOne());
    List<Integer> after = p.connectionIds();
    List<Integer> gone = new ArrayList<>(before);
    gone.removeAll(after);
    assertEquals(1, gone.size());
    return gone.get(0);
  }

  @Test
  void aDownstreamStallKeepsTheConnectionOpenAndHoldsTheBytesUntilResumed() throws Exception {
    Socket s = connect();
    roundTrip(s, bytes("warm"));
    assertEquals(1, proxy.stallAll(Direction.DOWNSTREAM, null));
    long before = echo.received();

    s.getOutputStream().write(bytes("held"));
    // upstream still flows: the echo server gets the bytes, but its answer does not come through
    Await.until("the echo server read the bytes", () -> echo.received() == before + 4, proxy::events);
    assertNothingArrives(s);
    assertEquals(List.of(1), proxy.connectionIds(), "the TCP connection stays open");

    proxy.resumeAll();
    assertArrayEquals(bytes("held"), readExactly(s, 4));
    assertEquals(1, proxy.stats().stalls());
  }

  @Test
  void anUpstreamStallStopsReadingFromTheClient() throws Exception {
    Socket s = connect();
    roundTrip(s, bytes("warm"));
    long before = echo.received();
    proxy.stallAll(Direction.UPSTREAM, null);

    s.getOutputStream().write(bytes("wait"));
    assertNothingArrives(s);
    assertEquals(before, echo.received(), "the proxy forwarded upstream during the stall");

    proxy.resumeAll();
    assertArrayEquals(bytes("wait"), readExactly(s, 4));
  }

  @Test
  void aTimedStallEndsByItself() throws Exception {
    Socket s = connect();
    roundTrip(s, bytes("warm"));
    proxy.stallAll(Direction.BOTH, Duration.ofMillis(400));
    long t0 = System.nanoTime();
    assertArrayEquals(bytes("later"), roundTrip(s, bytes("later")));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertTrue(ms >= 350, "the stall lasted only " + ms + " ms");
  }

  @Test
  void aStallOfOneConnectionLeavesTheOthersFlowing() throws Exception {
    Socket a = connect();
    roundTrip(a, bytes("a"));
    int stalled = proxy.stallOne(Direction.BOTH, null);
    assertEquals(1, stalled);
    Socket b = connect();
    assertArrayEquals(bytes("b"), roundTrip(b, bytes("b")), "a new connection is not stalled");
    a.getOutputStream().write(bytes("a"));
    assertNothingArrives(a);
  }

  @Test
  void latencyAndThrottlingSlowTheFlowAndHealRestoresIt() throws Exception {
    Socket s = connect();
    roundTrip(s, bytes("warm"));

    proxy.latency(Duration.ofMillis(150));
    long t0 = System.nanoTime();
    roundTrip(s, bytes("slow"));
    long latencyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertTrue(latencyMs >= 280, "a round trip with 150 ms each way took " + latencyMs + " ms");

    proxy.heal();
    proxy.throttle(40_000);
    byte[] big = new byte[20_000];
    t0 = System.nanoTime();
    assertArrayEquals(big, roundTrip(s, big));
    long throttledMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertTrue(throttledMs >= 450, "20 kB at 40 kB/s took " + throttledMs + " ms");

    proxy.heal();
    assertArrayEquals(big, roundTrip(s, big));
  }

  @Test
  void refusedConnectionsAreResetAtOnce() throws Exception {
    proxy.refuseNew(true);
    Socket s = connect();
    assertDead(s);
    assertEquals(1, proxy.stats().refused());
    proxy.refuseNew(false);
    assertArrayEquals(bytes("ok"), roundTrip(connect(), bytes("ok")));
  }

  @Test
  void retargetSendsNewConnectionsToTheFirstPortThatAcceptsAndLeavesOpenOnesAlone() throws Exception {
    Socket before = connect();
    roundTrip(before, bytes("before"));
    int closedPort;
    try (java.net.ServerSocket gone = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = gone.getLocalPort(); // nothing listens there once closed: a dead server's port refuses
    }
    try (EchoServer second = new EchoServer()) {
      proxy.retarget(closedPort, second.port());
      assertArrayEquals(bytes("failover"), roundTrip(connect(), bytes("failover")));
      assertEquals(bytes("failover").length, second.received(), "it went to the second server");
      assertArrayEquals(bytes("still"), roundTrip(before, bytes("still")), "an open connection stays where it was");

      proxy.retarget(closedPort);
      assertDead(connect()); // no port accepts: the client is reset, as by a load balancer with no server
    }
  }

  @Test
  void theRandomModeCutsAndStallsThenStopsByItselfAndResumesEveryStall() throws Exception {
    RandomFaults plan = RandomFaults.of(7, Duration.ofMillis(1500))
        .withGaps(Duration.ofMillis(20), Duration.ofMillis(80))
        .withStalls(0.3, Duration.ofSeconds(30), Duration.ofSeconds(30));
    proxy.startRandom(plan);
    assertThrows(IllegalStateException.class, () -> proxy.startRandom(plan));

    // keep four connections busy, replacing those that die or hang
    Socket[] slots = new Socket[4];
    long deadline = System.nanoTime() + WAIT.toNanos();
    long cutsBeforeLastPass = 0;
    while (proxy.randomRunning()) {
      assertTrue(System.nanoTime() < deadline, "the random run did not stop by itself");
      cutsBeforeLastPass = proxy.stats().cuts();
      for (int i = 0; i < slots.length; i++) {
        try {
          if (slots[i] == null) slots[i] = connect(proxy.port(), 100);
          roundTrip(slots[i], bytes("ping"));
        } catch (IOException | AssertionError e) {
          if (slots[i] != null) slots[i].close();
          slots[i] = null;
        }
      }
    }
    assertTrue(proxy.awaitRandomDone(Duration.ZERO));
    FaultProxy.Stats stats = proxy.stats();
    assertTrue(stats.cuts() > 0, stats.toString());
    assertTrue(stats.stalls() > 0, stats.toString());

    // The 30 s stalls ended with the run: every surviving connection flows again, except one the run cut after
    // the last pass had checked it (at most one per cut made since that pass began).
    long lateCuts = stats.cuts() - cutsBeforeLastPass;
    int flowing = 0;
    int dead = 0;
    for (Socket s : slots) {
      if (s == null) continue;
      s.setSoTimeout((int) WAIT.toMillis()); // a stall still running would fail here, not pass as a cut
      byte[] answer;
      try {
        answer = roundTrip(s, bytes("after"));
      } catch (SocketTimeoutException e) {
        throw e;
      } catch (IOException e) { // reset, or the end of the stream: the connection was cut
        dead++;
        continue;
      }
      assertArrayEquals(bytes("after"), answer);
      flowing++;
    }
    assertTrue(dead <= lateCuts, dead + " surviving connections dead after the run, " + lateCuts
        + " cuts since the last pass began; " + proxy.events());
    assertTrue(flowing + dead > 0, "no connection survived the run to show that a stall ended with it");
    assertTrue(proxy.events().stream().anyMatch(e -> e.contains("random run ended")));
  }

  @Test
  void stopRandomEndsTheRunAtOnce() throws Exception {
    proxy.startRandom(RandomFaults.of(3, Duration.ofMinutes(10)));
    assertTrue(proxy.randomRunning());
    long t0 = System.nanoTime();
    proxy.stopRandom();
    assertFalse(proxy.randomRunning());
    // at once: well within the ten minutes the run had left, with slack for a loaded machine
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10));
  }

  @Test
  void closeResetsConnectionsStopsListeningAndEndsEveryThread() throws Exception {
    Socket stalled = connect();
    roundTrip(stalled, bytes("x"));
    Socket throttled = connect();
    roundTrip(throttled, bytes("y"));
    proxy.stallOne(Direction.BOTH, null);
    proxy.throttle(10);
    throttled.getOutputStream().write(new byte[1000]); // a pump thread is now waiting out the throttle
    proxy.startRandom(RandomFaults.of(5, Duration.ofMinutes(10)));
    String prefix = proxy.threadNamePrefix();
    assertTrue(liveThreads(prefix) >= 4, "accept, random and pump threads run");

    proxy.close();

    // close() waited for the pool to terminate; a worker thread may take a moment more to die after its last task
    Await.until("every proxy thread ended", () -> liveThreads(prefix) == 0, () -> liveThreads(prefix) + " alive");
    assertDead(stalled);
    assertDead(throttled);
    assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), proxy.port()).close());
    assertFalse(proxy.randomRunning());
    proxy.close(); // idempotent
  }

  @Test
  void aJvmWhoseOnlyThreadsAreTheProxysExitsAfterClose() throws Exception {
    dev.svc.chat.it.ChildJvm.assertExitsAfter(FaultProxyExitMain.class, "closed");
  }

  // ------------------------------------------------------------------------------------------ helpers

  private Socket connect() throws IOException {
    return connect(proxy.port());
  }

  private Socket connect(int port) throws IOException {
    return connect(port, (int) WAIT.toMillis());
  }

  private Socket connect(int port, int readTimeoutMillis) throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
    s.setSoTimeout(readTimeoutMillis);
    sockets.add(s);
    return s;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] roundTrip(Socket s, byte[] data) throws IOException {
    s.getOutputStream().write(data);
    s.getOutputStream().flush();
    return readExactly(s, data.length);
  }

  /** Reads {@code n} bytes within the socket's read timeout per read. */
  private static byte[] readExactly(Socket s, int n) throws IOException {
    byte[] out = new byte[n];
    InputStream in = s.getInputStream();
    int off = 0;
    while (off < n) {
      int r = in.read(out, off, n - off);
      if (r < 0) throw new IOException("EOF after " + off + " of " + n + " bytes");
      off += r;
    }
    return out;
  }

  /** Asserts that nothing arrives on {@code s} for 300 ms (an absence can only be observed over a window). */
  private static void assertNothingArrives(Socket s) throws IOException {
    int saved = s.getSoTimeout();
    s.setSoTimeout(300);
    try {
      assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read(), "bytes came through a stall");
    } finally {
      s.setSoTimeout(saved);
    }
  }

  /** Asserts that the proxy ended {@code s}: a read sees a reset or the end of the stream. */
  private static void assertDead(Socket s) throws IOException {
    s.setSoTimeout((int) WAIT.toMillis());
    try {
      int r = s.getInputStream().read();
      assertEquals(-1, r, "the connection is still open");
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the connection is still open after " + WAIT, e);
    } catch (IOException expected) {
      // connection reset
    }
  }

  private static long liveThreads(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith(prefix) && t.isAlive()).count();
  }
}
