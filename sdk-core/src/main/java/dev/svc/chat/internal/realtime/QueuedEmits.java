package dev.svc.chat.internal.realtime;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.Scheduler;

/**
 * Emits asked for while no accepted connection is there (connecting, reconnecting, or the new connection of
 * a token refresh not yet accepted): they wait for the next accepted connection, each for at most the ack
 * timeout, instead of failing at once. Confined to the actor.
 */
final class QueuedEmits {
  interface Sender {
    /** Emits on the accepted connection. */
    void emit(String event, String argsJson, CompletableFuture<String> result);
  }

  private final Scheduler actor;
  private final long timeoutMillis;
  private final List<Queued> queued = new ArrayList<>();

  QueuedEmits(Scheduler actor, long timeoutMillis) {
    this.actor = actor;
    this.timeoutMillis = timeoutMillis;
  }

  void add(final String event, String argsJson, final CompletableFuture<String> result) {
    final Queued q = new Queued(event, argsJson, result);
    q.timer = actor.schedule(() -> {
      if (queued.remove(q)) {
        result.completeExceptionally(new TransportException("no connection within " + timeoutMillis
            + " ms to emit '" + event + "'"));
      }
    }, timeoutMillis);
    queued.add(q);
  }

  /** Emits everything queued, in order, on the connection just accepted. */
  void flush(Sender sender) {
    List<Queued> all = new ArrayList<>(queued);
    queued.clear();
    for (Queued q : all) {
      q.timer.cancel();
      sender.emit(q.event, q.argsJson, q.result);
    }
  }

  /** Fails everything queued: the client stopped connecting. */
  void failAll(Throwable error) {
    for (Iterator<Queued> it = queued.iterator(); it.hasNext(); ) {
      Queued q = it.next();
      it.remove();
      q.timer.cancel();
      q.result.completeExceptionally(error);
    }
  }

  private static final class Queued {
    final String event;
    final String argsJson;
    final CompletableFuture<String> result;
    Scheduler.Timer timer;

    Queued(String event, String argsJson, CompletableFuture<String> result) {
      this.event = event;
      this.argsJson = argsJson;
      this.result = result;
    }
  }
}
