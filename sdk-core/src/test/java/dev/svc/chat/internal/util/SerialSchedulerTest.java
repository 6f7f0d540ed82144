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
import java.util.concurrent.atomic.AtomicBoolean;
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

  @Test
  void executeHereRunsOnTheCallersThreadOnlyWhenTheActorIsIdle() {
    List<Runnable> posted = new ArrayList<>();
    SerialScheduler actor = new SerialScheduler(posted::add, new VirtualTaskScheduler(),
        new Log(new RecordingLogger()), CallerRuns.TRANSPORTS);
    List<String> seen = new ArrayList<>();

    // idle: the task runs now, here, as the actor's
    assertTrue(actor.executeHere(() -> seen.add("here, in the actor: " + actor.inActor())));
    assertEquals(List.of("here, in the actor: true"), seen);
    assertTrue(posted.isEmpty(), "an idle actor's task was handed to the executor");
    assertFalse(actor.inActor(), "the calling thread is the actor's only while the task runs");

    // busy: it waits its turn behind the task before it, and runs on the executor
    assertTrue(actor.execute(() -> seen.add("first")));
    assertTrue(actor.executeHere(() -> seen.add("second")));
    assertEquals(1, seen.size(), "a task ran ahead of the one queued before it");
    runAll(posted);
    assertEquals(List.of("here, in the actor: true", "first", "second"), seen);

    // a follow-up posted while it runs here runs here after it: no thread is woken for it
    seen.clear();
    assertTrue(actor.executeHere(() -> {
      actor.execute(() -> seen.add("posted meanwhile, in the actor: " + actor.inActor()));
      seen.add("here");
    }));
    assertEquals(List.of("here", "posted meanwhile, in the actor: true"), seen);
    assertTrue(posted.isEmpty(), "the executor was woken for a follow-up of a task run here");
    assertTrue(actor.executeHere(() -> seen.add("idle again")), "the queue is idle again after the follow-up");
    assertTrue(posted.isEmpty());

    // past the bound, the rest goes to the executor: the caller is soon back to its own work
    seen.clear();
    assertTrue(actor.executeHere(() -> {
      for (int i = 0; i < SerialQueue.FOLLOW_UPS_HERE + 2; i++) {
        final int n = i;
        actor.execute(() -> seen.add("follow-up " + n));
      }
    }));
    assertEquals(SerialQueue.FOLLOW_UPS_HERE, seen.size(), "follow-ups run here: " + seen);
    assertEquals(1, posted.size(), "one drain of the executor takes the rest");
    runAll(posted);
    List<String> inOrder = new ArrayList<>();
    for (int i = 0; i < SerialQueue.FOLLOW_UPS_HERE + 2; i++) inOrder.add("follow-up " + i);
    assertEquals(inOrder, seen);

    actor.shutdown();
    assertFalse(actor.executeHere(() -> seen.add("after shutdown")));
    assertFalse(seen.contains("after shutdown"));
  }

  @Test
  void whatAnotherThreadQueuedMeanwhileIsNotRunHereNorAnythingBehindIt() {
    List<Runnable> posted = new ArrayList<>();
    SerialScheduler actor = new SerialScheduler(posted::add, new VirtualTaskScheduler(),
        new Log(new RecordingLogger()), CallerRuns.TRANSPORTS);
    List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());

    assertTrue(actor.executeHere(() -> {
      Thread other = new Thread(() -> actor.execute(() -> seen.add("another thread's, on the executor: "
          + Thread.currentThread().getName())), "app");
      other.start();
      assertDoesNotHang(other);
      actor.execute(() -> seen.add("a follow-up, behind it"));
      seen.add("here");
    }));

    assertEquals(List.of("here"), seen, "a task another thread queued ran on the reader's thread");
    assertEquals(1, posted.size());
    Thread pool = new Thread(posted.remove(0), "pool");
    pool.start();
    assertDoesNotHang(pool);
    assertEquals(List.of("here", "another thread's, on the executor: pool", "a follow-up, behind it"), seen);
  }

  @Test
  void aFollowUpThatThrowsIsLoggedAndTheNextOneRunsHere() {
    List<Runnable> posted = new ArrayList<>();
    RecordingLogger logger = new RecordingLogger();
    SerialScheduler actor = new SerialScheduler(posted::add, new VirtualTaskScheduler(), new Log(logger),
        CallerRuns.TRANSPORTS);
    List<String> seen = new ArrayList<>();

    assertTrue(actor.executeHere(() -> {
      actor.execute(() -> {
        throw new IllegalStateException("a bug in a follow-up");
      });
      actor.execute(() -> seen.add("the next follow-up"));
    }));

    assertEquals(List.of("the next follow-up"), seen);
    assertTrue(posted.isEmpty());
    assertTrue(logger.mentions("unexpected error"), String.valueOf(logger.lines));
    assertTrue(actor.executeHere(() -> seen.add("idle again")));
  }

  private static void assertDoesNotHang(Thread thread) {
    try {
      thread.join(FakeGateway.TIMEOUT_SECONDS * 1000L);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertFalse(thread.isAlive(), thread + " did not end");
  }

  @Test
  void anAppsTaskRunsOnItsThreadOnlyWhereTheActorLetsTheAppsThreadsRunIt() {
    for (CallerRuns callerRuns : CallerRuns.values()) {
      List<Runnable> posted = new ArrayList<>();
      SerialScheduler actor = new SerialScheduler(posted::add, new VirtualTaskScheduler(),
          new Log(new RecordingLogger()), callerRuns);
      List<String> seen = new ArrayList<>();

      assertTrue(actor.executeFromApp(() -> seen.add("in the actor: " + actor.inActor())));
      boolean here = callerRuns == CallerRuns.TRANSPORTS_AND_APP;
      assertEquals(here ? List.of("in the actor: true") : List.of(), seen, callerRuns.name());
      assertEquals(here ? 0 : 1, posted.size(), callerRuns.name());
      runAll(posted);
      assertEquals(List.of("in the actor: true"), seen, callerRuns.name());

      // what others queue while the app's task runs there is not the app's thread's to run
      seen.clear();
      AtomicBoolean returned = new AtomicBoolean();
      assertTrue(actor.executeFromApp(() -> {
        actor.execute(() -> seen.add("queued meanwhile, run after the app's call returned: " + returned.get()));
        seen.add("the app's");
      }));
      returned.set(true);
      runAll(posted);
      assertEquals(List.of("the app's", "queued meanwhile, run after the app's call returned: true"), seen,
          callerRuns.name());
      seen.clear();
      seen.add("in the actor: true");

      // a busy actor: the app's task waits its turn on the executor, whatever the policy
      assertTrue(actor.execute(() -> seen.add("first")));
      assertTrue(actor.executeFromApp(() -> seen.add("second")));
      assertEquals(1, seen.size(), callerRuns.name());
      runAll(posted);
      assertEquals(List.of("in the actor: true", "first", "second"), seen, callerRuns.name());
    }
  }

  @Test
  void executeHereReportsTasksDroppedWhenTheExecutorRefusesWhatWasPostedMeanwhile() {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    pool.shutdown();
    RecordingLogger logger = new RecordingLogger();
    SerialScheduler actor = new SerialScheduler(pool, new VirtualTaskScheduler(), new Log(logger), CallerRuns.TRANSPORTS);
    AtomicInteger ran = new AtomicInteger();

    assertTrue(actor.executeHere(() -> {
      ran.incrementAndGet();
      // queued behind: the first ones run here, the executor will refuse the rest
      for (int i = 0; i < SerialQueue.FOLLOW_UPS_HERE + 2; i++) actor.execute(ran::incrementAndGet);
    }), "the task itself ran");
    assertEquals(1 + SerialQueue.FOLLOW_UPS_HERE, ran.get());
    assertFalse(actor.execute(ran::incrementAndGet), "the client can no longer run");
    assertTrue(logger.mentions("2 other queued task(s) dropped"), String.valueOf(logger.lines));
  }

  @Test
  void anActorOnTheAppsExecutorRunsEveryTaskOnIt() {
    List<Runnable> posted = new ArrayList<>();
    SerialScheduler actor = new SerialScheduler(posted::add, new VirtualTaskScheduler(),
        new Log(new RecordingLogger()));
    AtomicInteger ran = new AtomicInteger();

    assertTrue(actor.executeHere(ran::incrementAndGet));
    assertEquals(0, ran.get(), "a task ran off the executor the app gave");
    runAll(posted);
    assertEquals(1, ran.get());
  }

  private static void runAll(List<Runnable> posted) {
    while (!posted.isEmpty()) posted.remove(0).run();
  }
}
