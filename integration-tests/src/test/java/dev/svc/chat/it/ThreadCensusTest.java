package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The soak's count of the clients' threads: blind to OkHttp's breathing pools, not to a thread left behind. */
class ThreadCensusTest {
  private static final List<String> STEADY = List.of("main", "svc-chat-engine-1", "svc-chat-callbacks-2",
      "OkHttp http://127.0.0.1:4312/socket.io/?EIO=4&transport=websocket", "OkHttp TaskRunner",
      "OkHttp Dispatcher", "fault-proxy-4312-7");

  @Test
  void namesFoldIntoGroups() {
    assertEquals("svc-chat-engine-#", ThreadCensus.group("svc-chat-engine-12"));
    assertEquals("OkHttp <url>", ThreadCensus.group("OkHttp http://127.0.0.1:4312/socket.io/?EIO=4"));
    assertEquals("Thread-#", ThreadCensus.group("Thread-7"));
  }

  @Test
  void okHttpsPoolsBreathingIsNotCounted() {
    List<String> busy = new ArrayList<>(STEADY);
    for (int i = 0; i < 25; i++) busy.add(i % 2 == 0 ? "OkHttp TaskRunner" : "OkHttp Dispatcher");
    assertEquals(ThreadCensus.of(STEADY).clients(), ThreadCensus.of(busy).clients());
  }

  @Test
  void aThreadLeftBehindPerReconnectIsCounted() {
    List<String> leaking = new ArrayList<>(STEADY);
    for (int i = 0; i < 25; i++) leaking.add(i % 2 == 0 ? "Thread-" + i : "svc-chat-reconnect-" + i);
    ThreadCensus steady = ThreadCensus.of(STEADY);
    ThreadCensus leaked = ThreadCensus.of(leaking);
    assertEquals(steady.clients() + 25, leaked.clients());
    assertEquals("Thread-# 0->13, svc-chat-reconnect-# 0->12", leaked.changesSince(steady));
  }

  @Test
  void theCensusSeesTheLiveThreads() throws Exception {
    CountDownLatch end = new CountDownLatch(1);
    CountDownLatch running = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      running.countDown();
      try {
        end.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "census-probe-1");
    t.setDaemon(true);
    t.start();
    try {
      running.await();
      assertEquals(1, ThreadCensus.now().groups().get("census-probe-#"));
    } finally {
      end.countDown();
      t.join(10_000);
    }
  }
}
