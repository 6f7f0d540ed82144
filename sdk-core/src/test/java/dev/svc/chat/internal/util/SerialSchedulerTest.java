package dev.svc.chat.internal.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.Test;

class SerialSchedulerTest {
  @Test
  void refusesATaskTheExecutorRejectsInsteadOfRunningItOnTheCallersThread() {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    pool.shutdown(); // the app shut its engine executor down while the client still used it
    RecordingLogger logger = new RecordingLogger();
    SerialScheduler actor = new SerialScheduler(pool, new VirtualTaskScheduler(), new Log(logger));
    AtomicInteger ran = new AtomicInteger();

    assertFalse(actor.execute(ran::incrementAndGet), "a task the executor refused was reported as accepted");
    assertEquals(0, ran.get(), "the refused task ran on the caller's thread");
    assertFalse(actor.execute(ran::incrementAndGet), "the client can no longer run: later tasks are refused too");
    assertEquals(0, ran.get());
    assertEquals(0, actor.backlog());
    assertTrue(logger.mentions("refused"), "the app is told why its client stopped");
  }

  @Test
  void runsTasksOneAtATimeInOrderOnAPoolAndRefusesThemAfterShutdown() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      SerialScheduler actor = new SerialScheduler(pool, new VirtualTaskScheduler(), new Log(new RecordingLogger()));
      List<Integer> seen = new ArrayList<>(); // unsynchronised on purpose: one task at a time
      CountDownLatch done = new CountDownLatch(1);
      for (int i = 0; i < 1_000; i++) {
        final int n = i;
        assertTrue(actor.execute(() -> seen.add(n)));
      }
      assertTrue(actor.execute(done::countDown));
      assertTrue(done.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS));
      for (int i = 0; i < 1_000; i++) assertEquals(i, (int) seen.get(i));

      actor.shutdown();
      assertFalse(actor.execute(() -> seen.add(-1)));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aTimerRunsOnTheQueueUnlessCancelledEvenAfterItFellDue() {
    VirtualTaskScheduler time = new VirtualTaskScheduler();
    List<Runnable> queued = new ArrayList<>();
    SerialScheduler actor = new SerialScheduler(queued::add, time, new Log(new RecordingLogger()));
    AtomicInteger fired = new AtomicInteger();

    actor.schedule(fired::incrementAndGet, 100);
    Scheduler.Timer cancelledEarly = actor.schedule(fired::incrementAndGet, 100);
    cancelledEarly.cancel();
    Scheduler.Timer cancelledLate = actor.schedule(fired::incrementAndGet, 100);
    time.advance(100); // all fall due: the two live timers are posted to the queue
    cancelledLate.cancel(); // after it was posted, before the queue ran it
    for (int i = 0; i < queued.size(); i++) queued.get(i).run();

    assertEquals(1, fired.get());
    assertEquals(0, time.pending());
  }
}
