package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;

import dev.svc.chat.TransportException;
import org.junit.jupiter.api.Test;

/** An emit's {@code read} future: done when its frame left the socket's queue, even after its ack timed out. */
class PendingAcksTest {
  private final VirtualScheduler time = new VirtualScheduler();
  private final PendingAcks acks = new PendingAcks(time, 200);

  @Test
  void aTimedOutEmitsReadCompletesAtItsLateAcknowledgement() {
    CompletableFuture<String> answer = new CompletableFuture<>();
    CompletableFuture<Void> read = new CompletableFuture<>();
    int id = acks.register("send-message", answer, read);
    time.advance(200);
    assertTrue(answer.isCompletedExceptionally(), "the attempt timed out");
    assertFalse(read.isDone(), "its frame may still be queued");
    assertTrue(acks.complete(id, "[{\"ok\":true}]"), "the late acknowledgement is known");
    assertTrue(read.isDone());
    assertFalse(acks.complete(id, "[{\"ok\":true}]"), "and taken once");
  }

  @Test
  void readCompletesAtTheAcknowledgementAFailureOrTheConnectionsEnd() {
    CompletableFuture<Void> acked = new CompletableFuture<>();
    int id = acks.register("send-message", new CompletableFuture<>(), acked);
    assertTrue(acks.complete(id, "[]"));
    assertTrue(acked.isDone());

    CompletableFuture<Void> failed = new CompletableFuture<>();
    acks.fail(acks.register("send-message", new CompletableFuture<>(), failed), new TransportException("not sent"));
    assertTrue(failed.isDone());

    CompletableFuture<Void> timedOut = new CompletableFuture<>();
    CompletableFuture<Void> waiting = new CompletableFuture<>();
    acks.register("send-message", new CompletableFuture<>(), timedOut);
    time.advance(200);
    acks.register("send-message", new CompletableFuture<>(), waiting);
    acks.failAll(new TransportException("the connection was lost"));
    assertTrue(timedOut.isDone(), "the socket and its queue are gone");
    assertTrue(waiting.isDone());
  }
}
