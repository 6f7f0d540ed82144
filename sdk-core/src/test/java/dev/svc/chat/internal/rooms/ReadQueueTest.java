package dev.svc.chat.internal.rooms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import dev.svc.chat.ApiException;
import dev.svc.chat.Receipt;
import dev.svc.chat.TransportException;
import org.junit.jupiter.api.Test;

/** A read made offline is kept like a send and goes out on the next connection, the latest per room. */
class ReadQueueTest {
  private boolean online;
  private ApiException refusal;
  private final List<String> sent = new ArrayList<>();

  private final ReadQueue queue = new ReadQueue((roomId, messageId) -> {
    CompletableFuture<Receipt> f = new CompletableFuture<>();
    if (refusal != null) {
      f.completeExceptionally(refusal);
    } else if (!online) {
      f.completeExceptionally(new TransportException("offline"));
    } else {
      sent.add(roomId + " " + messageId);
      f.complete(Receipt.of(roomId, "me", messageId, Long.parseLong(messageId.substring(1)), 1));
    }
    return f;
  });

  @Test
  void readsMadeOfflineGoOutOnTheNextConnectionTheLatestOfEachRoom() throws Exception {
    CompletableFuture<Receipt> first = queue.markRead("r1", "m3");
    CompletableFuture<Receipt> second = queue.markRead("r1", "m5");
    CompletableFuture<Receipt> other = queue.markRead("r2", "m1");
    assertFalse(first.isDone(), "waits like a send, not failed");
    assertEquals(2, queue.waitingRooms());
    online = true;
    queue.onConnected();
    assertEquals(Arrays.asList("r1 m5", "r2 m1"), sent, "one read per room, its latest");
    assertEquals(5, first.get().seq(), "an earlier read completes with the later one that covers it");
    assertEquals(5, second.get().seq());
    assertEquals(1, other.get().seq());
    assertEquals(0, queue.waitingRooms());
  }

  @Test
  void aRefusalFailsTheReadInsteadOfKeepingIt() {
    refusal = new ApiException(403, "forbidden", "not a member");
    CompletableFuture<Receipt> read = queue.markRead("r1", "m3");
    ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, read::get);
    assertTrue(e.getCause() instanceof ApiException);
    assertEquals(0, queue.waitingRooms());
  }
}
