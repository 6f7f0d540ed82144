package dev.svc.chat.internal.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.SerialScheduler;
import dev.svc.chat.internal.realtime.ReconnectPolicy;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;

/**
 * An {@link Outbox} on virtual time with a fake transport, all on the test's thread: the actor is a
 * {@link SerialScheduler} over a direct executor and a {@link VirtualTaskScheduler}, file I/O runs in place, and
 * each attempt waits in {@link #calls} until the test answers it.
 */
final class OutboxHarness {
  static final long BASE = 100;
  static final long MAX = 1_000;
  /** The fraction of the backoff ceiling the jitter draws: delays are predictable. */
  static final double JITTER = 0.5;

  final VirtualTaskScheduler time = new VirtualTaskScheduler();
  final RecordingLogger logger = new RecordingLogger();
  final Log log = new Log(logger);
  final SerialScheduler actor = new SerialScheduler(Runnable::run, time, log);
  final List<Attempt> calls = new CopyOnWriteArrayList<>();
  final List<ClientError> errors = new CopyOnWriteArrayList<>();
  final ReconnectPolicy backoff = new ReconnectPolicy(BASE, MAX, new Random() {
    @Override
    public double nextDouble() {
      return JITTER;
    }
  });
  final Outbox outbox;

  OutboxHarness() {
    this(0, null);
  }

  OutboxHarness(long sendTimeoutMillis, FileOutboxStore store) {
    outbox = new Outbox(actor, this::send, errors::add, backoff, sendTimeoutMillis, store,
        new SerialQueue(Runnable::run, "I/O", log), () -> 1_700_000_000_000L + time.nowMillis(), log);
  }

  /** One request the outbox made. */
  static final class Attempt {
    final String roomId;
    final String clientMessageId;
    final String senderId;
    final List<MessagePart> parts;
    final SendLinks links;
    final long atMillis;
    final CompletableFuture<Message> answer = new CompletableFuture<>();

    Attempt(String roomId, String clientMessageId, String senderId, List<MessagePart> parts, SendLinks links,
        long atMillis) {
      this.roomId = roomId;
      this.links = links;
      this.clientMessageId = clientMessageId;
      this.senderId = senderId;
      this.parts = parts;
      this.atMillis = atMillis;
    }

    void succeed(long seq) {
      answer.complete(Message.builder().id("m-" + clientMessageId).roomId(roomId).seq(seq).senderId(senderId)
          .clientMessageId(clientMessageId).parts(parts).createdAt(0).build());
    }

    void fail(Throwable error) {
      answer.completeExceptionally(error);
    }

    @Override
    public String toString() {
      return roomId + "/" + clientMessageId + "@" + atMillis;
    }
  }

  private CompletableFuture<Message> send(String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId) {
    Attempt a = new Attempt(roomId, clientMessageId, senderId, parts, links, time.nowMillis());
    calls.add(a);
    return a.answer;
  }

  /** Runs {@code task} on the actor (here: in place). */
  void onActor(Runnable task) {
    assertTrue(actor.execute(task));
  }

  void connected() {
    onActor(() -> outbox.onConnectionState(ConnectionState.CONNECTED));
  }

  void state(ConnectionState state) {
    onActor(() -> outbox.onConnectionState(state));
  }

  CompletableFuture<Message> send(String roomId, String clientMessageId) {
    return outbox.enqueue(roomId, Collections.singletonList(MessagePart.text("text of " + clientMessageId)),
        clientMessageId, "alice");
  }

  /** Returns the attempt number {@code index} (from 0), failing if there is none yet. */
  Attempt call(int index) {
    if (calls.size() <= index) fail("no attempt #" + index + "; attempts: " + calls);
    return calls.get(index);
  }

  Attempt last() {
    return call(calls.size() - 1);
  }

  /** Returns "room/id" of every attempt, in order. */
  List<String> sent() {
    List<String> out = new ArrayList<>();
    for (Attempt a : calls) out.add(a.roomId + "/" + a.clientMessageId);
    return out;
  }

  void assertSent(String... expected) {
    assertEquals(Arrays.asList(expected), sent());
  }

  /** Returns the delay the backoff gives before retry {@code n} (from 0). */
  long backoffMillis(int n) {
    return (long) (JITTER * (backoff.ceilingMillis(n) + 1));
  }

  static <T extends Throwable> T failure(CompletableFuture<?> f, Class<T> type) {
    assertTrue(f.isDone(), "not done");
    try {
      f.get();
    } catch (ExecutionException e) {
      if (!type.isInstance(e.getCause())) throw new AssertionError("expected " + type + " but got " + e.getCause());
      return type.cast(e.getCause());
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("expected a failure but completed");
  }

  static Message value(CompletableFuture<Message> f) {
    assertTrue(f.isDone(), "not done");
    return f.join();
  }

  static File[] files(File dir, String suffix) {
    File[] found = dir.listFiles((d, name) -> name.endsWith(suffix));
    Arrays.sort(found);
    return found;
  }
}
