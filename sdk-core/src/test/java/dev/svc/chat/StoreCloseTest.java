package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.testing.NoOpChatStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * close() returns once the store ran the writes queued before it and was closed: the next client of the user (a
 * restart in the same process) or the next process then finds what the app did last (a read or a send made
 * offline). The store's I/O threads are daemons shared by every client, so a write still queued when close()
 * returned could run after the next client loaded the store, or never (the JVM exits).
 */
class StoreCloseTest {
  private final CountDownLatch writing = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<String> events = new CopyOnWriteArrayList<>();
  private ChatClient client;

  @AfterEach
  void tearDown() {
    release.countDown();
    if (client != null) client.close();
  }

  @Test
  void closeReturnsOnlyOnceTheQueuedWritesRanAndTheStoreClosed() throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    client = Svc.init(SvcOptions.builder("http://127.0.0.1:" + deadPort + "/v1").store(new SlowWriteStore()).build());
    client.connect("alice", "good-jwt"); // never connects: the send below is kept in the store
    client.sendText("r1", "typed in a tunnel");
    assertTrue(writing.await(30, TimeUnit.SECONDS), "the send reached the store");

    CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> {
      client.close();
      events.add("close returned");
    });
    assertThrows(TimeoutException.class, () -> closing.get(1, TimeUnit.SECONDS),
        "close() returned while the store was still writing");
    release.countDown();
    closing.get(30, TimeUnit.SECONDS);
    assertEquals(Arrays.asList("written", "store closed", "close returned"), events);
  }

  /** A store whose first write waits for the test. */
  private final class SlowWriteStore extends NoOpChatStore {
    @Override
    public void write(StoreWrite write) {
      if (writing.getCount() == 0) return;
      writing.countDown();
      try {
        release.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      events.add("written");
    }

    @Override
    public void close() {
      events.add("store closed");
    }
  }
}
