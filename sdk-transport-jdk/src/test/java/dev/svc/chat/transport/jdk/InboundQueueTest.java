package dev.svc.chat.transport.jdk;

import static java.util.stream.Collectors.toList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/**
 * A socket's {@link InboundQueue}, fed by the JDK's callbacks on a fake WebSocket: the demand (a window at the
 * open, more as the listener takes messages), the drain's batches and deferrals, and the end as the last event.
 */
class InboundQueueTest {
  private final JdkSocketTest.Recorder listener = new JdkSocketTest.Recorder();
  private final JdkSocketTest.FakeWebSocket ws = new JdkSocketTest.FakeWebSocket();
  private final JdkSocket socket =
      new JdkSocket(listener, Runnable::run, JdkTransport.Timer.INSTANCE, JdkSocket.CLOSE_TIMEOUT_MILLIS,
          JdkTransport.SILENCE_MILLIS, System::nanoTime);

  @Test
  void asksForAWindowAtOpenAndMoreAsTheListenerTakesMessages() {
    socket.onOpen(ws);
    assertEquals(List.of("open"), listener.events);
    assertEquals(List.of((long) InboundQueue.WINDOW), ws.requests);
    for (int i = 0; i < InboundQueue.WINDOW / 2; i++) socket.onText(ws, "m" + i, true);
    assertEquals(List.of((long) InboundQueue.WINDOW, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), ws.requests,
        "each drain asks again for what it took (a direct executor drains each message at once)");
  }

  @Test
  void thePeersCloseIsTheLastEvent() {
    socket.onOpen(ws);
    socket.onClose(ws, 1001, "going away");
    socket.onText(ws, "after", true);
    assertEquals(List.of("open", "closing 1001", "closed 1001"), listener.events);
  }

  @Test
  void anErrorFromTheListenerFailsTheSocket() {
    listener.error = new LinkageError("boom");
    socket.onOpen(ws);
    socket.onText(ws, "m", true); // the direct executor would throw it here if the drain let it through
    assertTrue(ws.aborted);
    assertEquals(List.of("open", "failure java.lang.LinkageError: boom -1"), listener.events);
  }

  @Test
  void aDrainHandsOverABatchThenLetsTheExecutorsOtherTasksRun() {
    List<Runnable> tasks = new ArrayList<>();
    JdkSocket queued =
        new JdkSocket(listener, tasks::add, JdkTransport.Timer.INSTANCE, JdkSocket.CLOSE_TIMEOUT_MILLIS,
          JdkTransport.SILENCE_MILLIS, System::nanoTime);
    queued.onOpen(ws);
    for (int i = 0; i < InboundQueue.BATCH + 4; i++) queued.onText(ws, "m" + i, true);
    assertEquals(1, tasks.size(), "one drain posted");
    tasks.remove(0).run();
    assertEquals(InboundQueue.BATCH - 1, listener.texts.size(), "the open and a batch's texts");
    assertEquals(1, tasks.size(), "the rest goes to the back of the executor's queue");
    tasks.remove(0).run();
    assertEquals(InboundQueue.BATCH + 4, listener.texts.size());
    assertTrue(tasks.isEmpty());
  }

  @Test
  void aDeferredMessageIsHandedOverAgainAndNothingIsAskedForMeanwhile() throws InterruptedException {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    CountDownLatch held = new CountDownLatch(1);
    try {
      timer.execute(() -> awaitQuietly(held)); // the deferral's retry waits behind this until the test lets it go
      JdkSocket deferring = new JdkSocket(listener, Runnable::run, timer, JdkSocket.CLOSE_TIMEOUT_MILLIS,
          JdkTransport.SILENCE_MILLIS, System::nanoTime);
      deferring.onOpen(ws);
      listener.defers = 1;
      deferring.onText(ws, "a", true);
      deferring.onText(ws, "b", true);
      assertTrue(listener.texts.isEmpty(), "nothing handed over while deferred");
      assertEquals(List.of((long) InboundQueue.WINDOW), ws.requests, "nothing asked for while deferred");
      held.countDown();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (listener.texts.size() < 2 && System.nanoTime() < deadline) LockSupport.parkNanos(1_000_000);
      assertEquals(List.of("a", "b"), listener.texts.stream().map(CharSequence::toString).collect(toList()));
      assertEquals(List.of((long) InboundQueue.WINDOW, 2L), ws.requests, "both asked for again once taken");
    } finally {
      held.countDown();
      timer.shutdownNow();
      assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void aMessageCanBeDeferredOnlyFromTheListenersOnText() {
    socket.onOpen(ws);
    assertFalse(socket.deferText(0), "outside onText");
    listener.defers = 1;
    socket.onText(ws, "a", true);
    assertEquals(0, listener.defers, "deferred from onText");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (listener.texts.isEmpty() && System.nanoTime() < deadline) LockSupport.parkNanos(1_000_000);
    assertEquals(List.of("a"), listener.texts.stream().map(CharSequence::toString).collect(toList()),
        "handed over again after the delay");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
