package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.RecordingLogger;
import org.junit.jupiter.api.Test;

class SerialExecutorTest {
  @Test
  void runsTasksOneAtATimeInOrderOnAMultiThreadedExecutorAndLogsOneThatThrows() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    RecordingLogger logger = new RecordingLogger();
    try {
      SerialExecutor serial = SerialExecutor.on(pool, logger);
      List<Integer> seen = new ArrayList<>(); // unsynchronised on purpose: one task at a time
      CountDownLatch done = new CountDownLatch(1);
      for (int i = 0; i < 1_000; i++) {
        final int n = i;
        serial.execute(() -> {
          seen.add(n);
          if (n == 500) throw new IllegalStateException("app bug");
        });
      }
      serial.execute(done::countDown);
      assertTrue(done.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS));
      for (int i = 0; i < 1_000; i++) assertEquals(i, (int) seen.get(i));
      assertTrue(logger.mentions("a callback threw"), "the exception was swallowed");
      assertEquals(0, serial.backlog());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aRefusedExecutorNeverRunsTasksOnTheSubmittingThreadAndDropsThemWithAnError() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    pool.shutdown(); // the app shut its executor down while a client still used it
    RecordingLogger logger = new RecordingLogger();
    SerialExecutor serial = SerialExecutor.on(pool, logger);
    List<String> ranOn = new java.util.concurrent.CopyOnWriteArrayList<>();
    serial.execute(() -> ranOn.add(Thread.currentThread().getName()));
    serial.execute(() -> ranOn.add(Thread.currentThread().getName()));
    assertTrue(ranOn.isEmpty(), "app code ran on the submitting thread (an engine or socket reader): " + ranOn);
    assertTrue(logger.mentions("refused"), "the dropped callbacks were not reported");
    assertEquals(0, serial.backlog());
  }
}
