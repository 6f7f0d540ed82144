package dev.svc.chat.internal.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import org.junit.jupiter.api.Test;

/** The threads clients share: per-client order on a shared pool, and no client stalls the others for good. */
class ClientThreadsTest {
  @Test
  void eachClientsCallbacksRunInOrderOnTheSharedPool() throws Exception {
    int clients = 50;
    int tasks = 400;
    final List<List<Integer>> seen = new ArrayList<>();
    List<CallbackExecutor> executors = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      seen.add(Collections.synchronizedList(new ArrayList<Integer>()));
      executors.add(CallbackExecutor.on(ClientThreads.callbacks(), new Log(ChatLogger.NONE)));
    }
    final Thread[] submitters = new Thread[4];
    final AtomicInteger done = new AtomicInteger();
    final List<String> threads = Collections.synchronizedList(new ArrayList<String>());
    // each submitter owns a slice of the clients and submits their tasks interleaved with the others'
    for (int s = 0; s < submitters.length; s++) {
      final int slice = s;
      submitters[s] = new Thread(() -> {
        for (int i = 0; i < tasks; i++) {
          for (int c = slice; c < clients; c += submitters.length) {
            final int client = c;
            final int n = i;
            executors.get(c).execute(() -> {
              seen.get(client).add(n);
              threads.add(Thread.currentThread().getName());
              done.incrementAndGet();
            });
          }
        }
      });
      submitters[s].start();
    }
    for (Thread t : submitters) t.join();
    Await.until("every callback to run", () -> done.get() == clients * tasks);
    for (int c = 0; c < clients; c++) {
      List<Integer> got = seen.get(c);
      for (int i = 0; i < tasks; i++) assertEquals(i, (int) got.get(i), "client " + c + " saw " + got);
    }
    int pool = ClientThreads.callbacks().allowedThreads();
    assertTrue(pool < clients, "a pool of " + pool + " threads, not one per client");
    synchronized (threads) {
      for (String name : threads) assertTrue(name.startsWith("svc-chat-callbacks-"), name);
    }
  }

  @Test
  void blockedTasksDelayOtherClientsButDoNotStopThem() throws Exception {
    SharedPool pool = new SharedPool("svc-chat-test-pool", 2, 8, 200, 50, SharedTimer.get());
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch blocked = new CountDownLatch(2);
    try {
      // two clients block both of the pool's threads
      for (int c = 0; c < 2; c++) {
        CallbackExecutor.on(pool, new Log(ChatLogger.NONE)).execute(() -> {
          blocked.countDown();
          try {
            release.await(2 * FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS); // released in finally
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      }
      assertTrue(blocked.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS));
      final CountDownLatch other = new CountDownLatch(1);
      final AtomicInteger threadsThen = new AtomicInteger();
      CallbackExecutor.on(pool, new Log(ChatLogger.NONE)).execute(() -> {
        threadsThen.set(pool.threads());
        other.countDown();
      });
      assertTrue(other.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS), "another client's callback stayed stuck behind blocked ones");
      assertTrue(threadsThen.get() > 2, "it ran on a thread the pool added: " + threadsThen.get());
    } finally {
      release.countDown();
    }
    Await.until("the pool to shrink back and its threads to end", () -> pool.threads() == 0
        && pool.allowedThreads() == 2);
  }
}
