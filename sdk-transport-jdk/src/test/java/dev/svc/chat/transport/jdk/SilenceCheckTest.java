package dev.svc.chat.transport.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The bound on a peer's close the JDK lost: a silent peer is pinged, and the socket fails if nothing answers. */
class SilenceCheckTest {
  private static final long SILENCE_MILLIS = 1_000;
  private final AtomicLong clock = new AtomicLong(TimeUnit.SECONDS.toNanos(100));
  private final JdkSocketTest.Recorder listener = new JdkSocketTest.Recorder();
  private final JdkSocketTest.FakeWebSocket ws = new JdkSocketTest.FakeWebSocket();
  /** The socket's own timer: shut down once the socket opened, so that only the test runs the check. */
  private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
  private final List<Runnable> drains = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    timer.shutdownNow();
    assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
  }

  private SilenceCheck open(JdkSocket socket) {
    socket.onOpen(ws);
    timer.shutdownNow();
    return new SilenceCheck(socket, SILENCE_MILLIS, clock::get);
  }

  private JdkSocket socket(boolean drained) {
    return new JdkSocket(listener, drained ? Runnable::run : drains::add, timer, JdkSocket.CLOSE_TIMEOUT_MILLIS,
        SILENCE_MILLIS, clock::get);
  }

  private void pass(long millis) {
    clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  @Test
  void aSilentPeerIsPingedAndTheSocketFailsWhenNothingAnswers() {
    JdkSocket socket = socket(true);
    SilenceCheck check = open(socket);
    pass(SILENCE_MILLIS - 1);
    check.run();
    assertTrue(ws.sent.isEmpty(), "no ping before the peer was silent for the bound");
    pass(1);
    check.run();
    assertEquals(List.of("ping"), ws.sent);
    pass(SILENCE_MILLIS - 1);
    check.run();
    assertFalse(ws.aborted, "the answer may come until the bound");
    pass(1);
    check.run();
    assertTrue(ws.aborted);
    assertEquals(List.of("open", "failure java.io.IOException: the peer answered nothing within 1000 ms of a ping:"
        + " the connection is gone -1"), listener.events);
  }

  @Test
  void anAnswerKeepsTheSocketAndAnotherSilenceIsPingedAgain() {
    JdkSocket socket = socket(true);
    SilenceCheck check = open(socket);
    pass(SILENCE_MILLIS);
    check.run();
    pass(SILENCE_MILLIS / 2);
    socket.onPong(ws, ByteBuffer.allocate(0));
    pass(SILENCE_MILLIS);
    check.run();
    assertFalse(ws.aborted);
    assertEquals(List.of("ping", "ping"), ws.sent, "the answer was heard, then silence for the bound again");
    socket.onText(ws, "40", true);
    pass(SILENCE_MILLIS - 1);
    check.run();
    assertFalse(ws.aborted, "any message answers");
    assertEquals(List.of("open"), listener.events);
  }

  @Test
  void noPingWhileTheListenerIsAWindowBehindForTheJdkReadsNothingThen() {
    JdkSocket socket = socket(false);
    SilenceCheck check = open(socket);
    for (int i = 0; i < InboundQueue.WINDOW; i++) socket.onText(ws, "m" + i, true);
    pass(10 * SILENCE_MILLIS);
    check.run();
    assertTrue(ws.sent.isEmpty());
    assertFalse(ws.aborted);
  }

  @Test
  void theCheckEndsWithAClose() {
    JdkSocket socket = socket(true);
    SilenceCheck check = open(socket);
    assertTrue(socket.close(1000, null));
    pass(10 * SILENCE_MILLIS);
    check.run();
    assertEquals(List.of("close 1000"), ws.sent, "a Close has its own bound");
  }
}
