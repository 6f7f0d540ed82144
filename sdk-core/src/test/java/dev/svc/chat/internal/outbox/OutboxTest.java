package dev.svc.chat.internal.outbox;

import static dev.svc.chat.internal.outbox.OutboxHarness.failure;
import static dev.svc.chat.internal.outbox.OutboxHarness.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatException;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.PendingSend;
import dev.svc.chat.SendTimeoutException;
import dev.svc.chat.TransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The outbox on virtual time with a fake transport: retries, order, endings, connection, snapshot. */
class OutboxTest {
  private final OutboxHarness h = new OutboxHarness();

  @Test
  void retriesANetworkErrorWithBackoffAndTheSameId() {
    h.connected();
    CompletableFuture<Message> sent = h.send("r1", "c1");
    h.call(0).fail(new TransportException("connection reset"));
    h.time.advance(h.backoffMillis(0) - 1);
    assertEquals(1, h.calls.size(), "retried before the backoff delay");
    h.time.advance(1);
    assertEquals(2, h.calls.size());
    h.call(1).fail(new TransportException("timeout", new IOException("timeout")));
    h.time.advance(h.backoffMillis(1) - 1);
    assertEquals(2, h.calls.size());
    h.time.advance(1);
    assertEquals(3, h.calls.size());
    assertEquals(h.backoffMillis(0), h.call(1).atMillis - h.call(0).atMillis);
    assertEquals(h.backoffMillis(1), h.call(2).atMillis - h.call(1).atMillis);
    assertTrue(h.backoffMillis(1) > h.backoffMillis(0), "the backoff grows");
    h.call(2).succeed(1);
    assertEquals("m-c1", value(sent).id());
    for (OutboxHarness.Attempt a : h.calls) {
      assertEquals("c1", a.clientMessageId);
      assertEquals("alice", a.senderId);
    }
    assertTrue(h.outbox.pendingSends().isEmpty());
  }

  @Test
  void retriesAServerError() {
    h.connected();
    CompletableFuture<Message> sent = h.send("r1", "c1");
    h.call(0).fail(new ApiException(503, "http_503", "HTTP 503"));
    h.call(0); // still one attempt
    h.time.advance(h.backoffMillis(0));
    h.call(1).fail(new ApiException(500, "internal", "boom"));
    h.time.advance(h.backoffMillis(1));
    h.call(2).succeed(1);
    assertEquals("c1", value(sent).clientMessageId());
    assertEquals(3, h.calls.size());
  }

  @Test
  void honoursRetryAfterOf429() {
    h.connected();
    CompletableFuture<Message> sent = h.send("r1", "c1");
    h.call(0).fail(new ApiException(429, "rate_limited", "slow down", 5_000));
    assertTrue(h.backoffMillis(0) < 5_000);
    h.time.advance(4_999);
    assertEquals(1, h.calls.size(), "retried before Retry-After");
    h.time.advance(1);
    assertEquals(2, h.calls.size());
    assertEquals(5_000, h.call(1).atMillis - h.call(0).atMillis);
    // without Retry-After, a 429 is retried after the backoff
    h.call(1).fail(new ApiException(429, "rate_limited", "slow down"));
    h.time.advance(h.backoffMillis(1));
    h.call(2).succeed(1);
    assertEquals("c1", value(sent).clientMessageId());
  }

  @Test
  void aBackoffLongerThanRetryAfterIsKept() {
    h.connected();
    h.send("r1", "c1");
    h.call(0).fail(new ApiException(429, "rate_limited", "slow down", 10));
    h.time.advance(h.backoffMillis(0) - 1);
    assertEquals(1, h.calls.size());
    h.time.advance(1);
    assertEquals(2, h.calls.size());
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 401, 403, 404, 409, 413})
  void anyOtherClientErrorIsFinal(int status) {
    assertFalse(SendFailures.isRetryable(new ApiException(status, "x", "x")));
  }

  @ParameterizedTest
  @ValueSource(ints = {429, 500, 502, 503, 504})
  void tooManyRequestsAndServerErrorsAreRetried(int status) {
    assertTrue(SendFailures.isRetryable(new ApiException(status, "x", "x")));
  }

  @Test
  void aPermanentRefusalFailsOnlyThatEntry() {
    h.connected();
    CompletableFuture<Message> a = h.send("r1", "a");
    CompletableFuture<Message> b = h.send("r1", "b");
    h.assertSent("r1/a");
    ApiException refusal = new ApiException(403, "forbidden", "not a member");
    h.call(0).fail(refusal);
    assertSame(refusal, failure(a, ApiException.class));
    h.assertSent("r1/a", "r1/b");
    h.call(1).succeed(1);
    assertEquals("b", value(b).clientMessageId());
    h.time.advance(60_000);
    assertEquals(2, h.calls.size(), "the refused send was tried again");
  }

  @Test
  void aRoomSendsInOrderOneAtATimeAndRoomsAreIndependent() {
    h.connected();
    CompletableFuture<Message> a = h.send("r1", "a");
    CompletableFuture<Message> b = h.send("r1", "b");
    CompletableFuture<Message> c = h.send("r1", "c");
    CompletableFuture<Message> x = h.send("r2", "x");
    h.assertSent("r1/a", "r2/x"); // one in flight per room, both rooms at once
    h.call(1).succeed(1); // x answers first: r2 does not wait for r1
    assertTrue(x.isDone());
    h.call(0).fail(new TransportException("reset")); // the head of r1 fails for a while
    h.time.advance(h.backoffMillis(0) - 1);
    h.assertSent("r1/a", "r2/x");
    assertFalse(b.isDone());
    h.time.advance(1);
    h.assertSent("r1/a", "r2/x", "r1/a");
    h.call(2).succeed(1);
    h.assertSent("r1/a", "r2/x", "r1/a", "r1/b");
    h.call(3).succeed(2);
    h.call(4).succeed(3);
    h.assertSent("r1/a", "r2/x", "r1/a", "r1/b", "r1/c");
    assertEquals(1, value(a).seq());
    assertEquals(2, value(b).seq());
    assertEquals(3, value(c).seq());
  }

  @Test
  void waitsWhileDisconnectedThenSendsOnConnected() {
    CompletableFuture<Message> sent = h.send("r1", "c1");
    h.state(ConnectionState.CONNECTING);
    h.time.advance(60_000);
    assertTrue(h.calls.isEmpty(), "sent while not connected");
    assertEquals(1, h.outbox.pendingSends().size());
    assertEquals(0, h.outbox.pendingSends().get(0).attempts());
    h.connected();
    h.call(0).succeed(1);
    assertTrue(sent.isDone());
  }

  @Test
  void aRequestUnderWayFinishesAfterADisconnectButARetryWaitsForTheConnection() {
    h.connected();
    CompletableFuture<Message> a = h.send("r1", "a");
    CompletableFuture<Message> b = h.send("r1", "b");
    CompletableFuture<Message> c = h.send("r2", "c");
    h.state(ConnectionState.RECONNECTING);
    h.call(0).succeed(1); // the request under way is allowed to finish
    assertEquals("a", value(a).clientMessageId());
    h.call(1).fail(new ApiException(503, "http_503", "HTTP 503"));
    h.time.advance(60_000);
    h.assertSent("r1/a", "r2/c"); // b does not start, c is not retried while disconnected
    h.connected();
    h.assertSent("r1/a", "r2/c", "r1/b", "r2/c");
    h.call(2).succeed(2);
    h.call(3).succeed(1);
    assertTrue(b.isDone() && c.isDone());
  }

  @Test
  void aNewConnectionRetriesANetworkFailureAtOnceButStillHonoursRetryAfter() {
    h.connected();
    h.send("r1", "a");
    h.send("r2", "b");
    h.call(0).fail(new TransportException("network down"));
    h.call(1).fail(new ApiException(429, "rate_limited", "slow down", 30_000));
    h.state(ConnectionState.RECONNECTING);
    h.time.advance(1);
    h.connected();
    h.assertSent("r1/a", "r2/b", "r1/a");
    h.time.advance(29_998);
    assertEquals(3, h.calls.size(), "Retry-After not honoured after a reconnect");
    h.time.advance(1);
    h.assertSent("r1/a", "r2/b", "r1/a", "r2/b");
  }

  @Test
  void theDeadlineFailsASendWithSendTimeoutExceptionAndTheRoomGoesOn() {
    OutboxHarness t = new OutboxHarness(10_000, null);
    t.connected();
    CompletableFuture<Message> a = t.send("r1", "a");
    CompletableFuture<Message> b = t.send("r1", "b");
    t.call(0).fail(new ApiException(429, "rate_limited", "slow down", 9_000));
    t.time.advance(9_000);
    t.call(1).fail(new ApiException(429, "rate_limited", "slow down", 9_000));
    t.time.advance(999);
    assertFalse(a.isDone());
    t.time.advance(1);
    SendTimeoutException e = failure(a, SendTimeoutException.class);
    assertEquals("a", e.clientMessageId());
    assertEquals(10_000, e.timeoutMillis());
    assertTrue(e.getCause() instanceof ApiException, "the last error is the cause");
    t.assertSent("r1/a", "r1/a", "r1/b"); // b started at once, having waited 10 s too
    t.call(2).succeed(1);
    assertTrue(b.isDone());
    t.time.advance(60_000);
    assertEquals(3, t.calls.size(), "the timed-out send was tried again");
    assertTrue(t.outbox.pendingSends().isEmpty());
  }

  @Test
  void aSendTimedOutInFlightKeepsItsRoomBusyUntilItsAnswer() {
    OutboxHarness t = new OutboxHarness(5_000, null);
    t.connected();
    CompletableFuture<Message> a = t.send("r1", "a");
    t.time.advance(1_000);
    CompletableFuture<Message> b = t.send("r1", "b");
    t.time.advance(4_000);
    failure(a, SendTimeoutException.class);
    assertFalse(b.isDone());
    t.assertSent("r1/a"); // b would race a's request, which may still be stored
    t.time.advance(500);
    t.call(0).succeed(1); // the late answer is ignored...
    failure(a, SendTimeoutException.class);
    t.assertSent("r1/a", "r1/b"); // ...but frees the room
    t.call(1).succeed(2);
    assertEquals(2, value(b).seq());
  }

  @Test
  void theDeadlineCountsWhileDisconnected() {
    OutboxHarness t = new OutboxHarness(5_000, null);
    CompletableFuture<Message> a = t.send("r1", "a");
    t.time.advance(5_000);
    failure(a, SendTimeoutException.class);
    t.connected();
    assertTrue(t.calls.isEmpty());
  }

  @Test
  void closingFailsEveryPendingSend() {
    h.connected();
    CompletableFuture<Message> inFlight = h.send("r1", "a");
    CompletableFuture<Message> waiting = h.send("r1", "b");
    CompletableFuture<Message> retrying = h.send("r2", "c");
    h.call(1).fail(new TransportException("reset"));
    h.state(ConnectionState.CLOSED);
    for (CompletableFuture<Message> f : List.of(inFlight, waiting, retrying)) {
      assertEquals("the client is closed", failure(f, ChatStateException.class).getMessage());
    }
    assertTrue(h.outbox.pendingSends().isEmpty());
    assertEquals(0, h.time.pending(), "a timer outlived the close");
    h.call(0).succeed(1); // a late answer changes nothing
    CompletableFuture<Message> late = h.send("r1", "d");
    assertEquals("the client is closed", failure(late, ChatStateException.class).getMessage());
    assertEquals(2, h.calls.size());
  }

  @Test
  void closeFailsSendsTheStoppedActorNeverQueued() {
    h.actor.shutdown();
    CompletableFuture<Message> dropped = h.send("r1", "a");
    h.outbox.close(true);
    assertEquals("the client is closed", failure(dropped, ChatStateException.class).getMessage());
  }

  @Test
  void aSendBeforeAnyConnectFailsAtOnce() {
    CompletableFuture<Message> f = h.outbox.enqueue("r1", List.of(MessagePart.text("hi")), "c1", null);
    assertTrue(failure(f, ChatStateException.class).getMessage().contains("connect"));
  }

  @Test
  void anotherUserStopsThePreviousUsersSends() {
    CompletableFuture<Message> a = h.send("r1", "a");
    h.outbox.start("bob");
    assertTrue(failure(a, ChatStateException.class).getMessage().contains("bob"));
    assertTrue(h.outbox.pendingSends().isEmpty());
  }

  @Test
  void pendingSendsIsASnapshotInQueueOrder() {
    CompletableFuture<Message> a = h.send("r1", "a");
    h.send("r2", "b");
    h.send("r1", "c");
    List<PendingSend> before = h.outbox.pendingSends();
    assertEquals(List.of("a", "b", "c"), before.stream().map(PendingSend::clientMessageId).toList());
    PendingSend first = before.get(0);
    assertEquals("r1", first.roomId());
    assertEquals("alice", first.senderId());
    assertEquals(List.of(MessagePart.text("text of a")), first.parts());
    assertEquals(1_700_000_000_000L, first.createdAt());
    assertEquals(0, first.attempts());
    assertNull(first.lastError());
    Message optimistic = first.pendingMessage();
    assertEquals(0, optimistic.seq());
    assertEquals("a", optimistic.id());
    assertThrows(UnsupportedOperationException.class, () -> before.remove(0));

    h.connected();
    h.call(0).fail(new TransportException("reset"));
    PendingSend retried = h.outbox.pendingSends().get(0);
    assertEquals(1, retried.attempts());
    assertTrue(retried.lastError() instanceof TransportException);
    assertEquals(0, first.attempts(), "a snapshot changed");
    assertEquals(3, before.size());

    h.time.advance(h.backoffMillis(0));
    h.last().succeed(1);
    assertTrue(a.isDone());
    assertEquals(List.of("b", "c"), h.outbox.pendingSends().stream().map(PendingSend::clientMessageId).toList());
    assertEquals(List.of("c"), pendingIds(h.outbox.pendingSends(), "r1"));
  }

  @Test
  void pendingSendsMayBeReadFromAnyThreadWhileTheActorWorks() throws Exception {
    h.connected();
    java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
    Thread reader = new Thread(() -> {
      try {
        for (int i = 0; i < 2_000; i++) {
          List<PendingSend> snapshot = h.outbox.pendingSends();
          for (PendingSend p : snapshot) p.clientMessageId(); // never a torn or null element
        }
      } catch (Throwable t) {
        failure.set(t); // would otherwise end the thread silently
      }
    });
    reader.start();
    for (int i = 0; i < 500; i++) {
      h.send("r" + (i % 3), "c" + i);
      h.last().succeed(i + 1);
    }
    reader.join(10_000);
    assertFalse(reader.isAlive());
    assertEquals(null, failure.get(), "reading pendingSends() from another thread failed");
    assertTrue(h.outbox.pendingSends().isEmpty());
  }

  @Test
  void aTransportThatThrowsIsATransientFailure() {
    OutboxHarness t = new OutboxHarness();
    Outbox throwing = new Outbox(t.actor, (roomId, parts, links, id, sender) -> {
      throw new TransportException("no network");
    }, t.errors::add, t.backoff, 0, null, null, () -> 0, t.log);
    CompletableFuture<Message> f = throwing.enqueue("r1", List.of(MessagePart.text("x")), "c1", "alice");
    t.onActor(() -> throwing.onConnectionState(ConnectionState.CONNECTED));
    assertFalse(f.isDone());
    assertEquals(1, throwing.pendingSends().get(0).attempts());
    ChatException last = throwing.pendingSends().get(0).lastError();
    assertTrue(last instanceof TransportException);
  }

  private static List<String> pendingIds(List<PendingSend> all, String roomId) {
    return all.stream().filter(p -> p.roomId().equals(roomId)).map(PendingSend::clientMessageId).toList();
  }
}
