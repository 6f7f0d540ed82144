package dev.svc.chat.internal;

import dev.svc.chat.internal.events.EventHub;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.testing.FakeGateway;
import org.junit.jupiter.api.Test;

/** The batched hand-over of inbound events to the callback executor, and the count of undelivered events. */
class InboundBatchTest {
  /** An executor that keeps what it is given until {@link #runAll}. */
  static final class HeldExecutor implements java.util.concurrent.Executor {
    final List<Runnable> tasks = new ArrayList<>();

    @Override
    public synchronized void execute(Runnable task) {
      tasks.add(task);
    }

    synchronized int size() {
      return tasks.size();
    }

    void runAll() {
      List<Runnable> now;
      synchronized (this) {
        now = new ArrayList<>(tasks);
        tasks.clear();
      }
      for (Runnable t : now) t.run();
    }
  }

  private final Log log = new Log(ChatLogger.NONE);

  @Test
  void aBatchReachesTheExecutorAsOneTaskInOrderAndAThrowingCallbackStopsNothing() {
    HeldExecutor executor = new HeldExecutor();
    CallbackExecutor callbacks = CallbackExecutor.on(executor, log);
    List<Integer> ran = new ArrayList<>();
    callbacks.beginBatch();
    callbacks.execute(() -> ran.add(1));
    callbacks.execute(() -> {
      throw new IllegalStateException("a broken callback");
    });
    callbacks.execute(() -> ran.add(3));
    assertEquals(0, executor.size(), "nothing is handed over before the batch ends");
    callbacks.endBatch();
    assertEquals(1, executor.size(), "one task for the whole batch");
    executor.runAll();
    assertEquals(Arrays.asList(1, 3), ran);
    callbacks.execute(() -> ran.add(4)); // outside a batch: straight through, as before
    assertEquals(1, executor.size());
    executor.runAll();
    assertEquals(Arrays.asList(1, 3, 4), ran);
  }

  @Test
  void anotherThreadsCallbacksAreNotHeldByTheBatch() throws Exception {
    HeldExecutor executor = new HeldExecutor();
    CallbackExecutor callbacks = CallbackExecutor.on(executor, log);
    List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
    callbacks.beginBatch();
    callbacks.execute(() -> ran.add("batched"));
    CountDownLatch submitted = new CountDownLatch(1);
    Thread other = new Thread(() -> {
      callbacks.execute(() -> ran.add("other thread"));
      submitted.countDown();
    });
    other.start();
    assertTrue(submitted.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS));
    other.join(TimeUnit.SECONDS.toMillis(FakeGateway.TIMEOUT_SECONDS));
    assertEquals(1, callbacks.backlog(), "the other thread's callback went straight to the serial queue");
    callbacks.endBatch();
    assertEquals(2, callbacks.backlog());
    executor.runAll();
    assertEquals(Arrays.asList("other thread", "batched"), ran);
  }

  @Test
  void theHubCountsEventsUntilTheirHandlersRan() {
    HeldExecutor executor = new HeldExecutor();
    EventHub hub = new EventHub(CallbackExecutor.on(executor, log), log);
    List<String> seen = new ArrayList<>();
    hub.on(EventType.NEW_MESSAGE, m -> seen.add(m.id()));
    hub.publish(EventType.CONNECTION_STATE, null); // no handler: not counted, not queued
    assertEquals(0, hub.undelivered());
    hub.beginBatch();
    hub.publish(EventType.NEW_MESSAGE, message("m1"));
    hub.publish(EventType.NEW_MESSAGE, message("m2"));
    assertEquals(2, hub.undelivered());
    hub.endBatch();
    assertEquals(2, hub.undelivered(), "handed over, not handled yet");
    executor.runAll();
    assertEquals(0, hub.undelivered());
    assertEquals(Arrays.asList("m1", "m2"), seen);
  }

  private static Message message(String id) {
    return Message.builder().id(id).roomId("r1").seq(1).senderId("u").clientMessageId("c").createdAt(0)
        .parts(new ArrayList<>()).build();
  }
}
