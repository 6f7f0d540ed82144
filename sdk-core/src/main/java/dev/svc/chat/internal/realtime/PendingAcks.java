package dev.svc.chat.internal.realtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.Scheduler;

/**
 * The emitted events waiting for the gateway's acknowledgement, by ack id. Ids are integers from 0, never
 * reused within a client. Confined to the actor thread.
 */
final class PendingAcks {
  private final Scheduler scheduler;
  private final long timeoutMillis;
  /** The emits waiting for their acknowledgement by id; null when none does (an idle client holds no map). */
  private Map<Integer, Pending> pending;
  private int nextId;
  private boolean wrapped;

  PendingAcks(Scheduler scheduler, long timeoutMillis) {
    this.scheduler = scheduler;
    this.timeoutMillis = timeoutMillis;
  }

  /** Registers {@code future} for the next ack id, with a timeout, and returns the id. */
  int register(final String event, CompletableFuture<String> future) {
    final int id = nextId;
    if (nextId == Integer.MAX_VALUE) wrapped = true;
    nextId = nextId == Integer.MAX_VALUE ? 0 : nextId + 1;
    Scheduler.Timer timer = scheduler.schedule(new Runnable() {
      @Override
      public void run() {
        fail(id, new TransportException("no acknowledgement of '" + event + "' within " + timeoutMillis + " ms"));
      }
    }, timeoutMillis);
    if (pending == null) pending = new HashMap<>(4);
    pending.put(id, new Pending(future, timer));
    return id;
  }

  /** Completes the emit with ack id {@code id}; returns false for an unknown (late or foreign) id. */
  boolean complete(int id, String argsJson) {
    Pending p = take(id);
    if (p == null) return false;
    p.timer.cancel();
    p.future.complete(argsJson);
    return true;
  }

  /** Fails the emit with ack id {@code id}, if still pending. */
  void fail(int id, Throwable error) {
    Pending p = take(id);
    if (p == null) return;
    p.timer.cancel();
    p.future.completeExceptionally(error);
  }

  /** Fails every pending emit, such as when the connection is lost. */
  void failAll(Throwable error) {
    if (pending == null) return;
    List<Pending> all = new ArrayList<>(pending.values());
    pending = null;
    for (Pending p : all) {
      p.timer.cancel();
      p.future.completeExceptionally(error);
    }
  }

  /**
   * Returns whether {@code id} was ever handed out (its acknowledgement may come late, after a timeout);
   * an id never issued means the gateway acknowledged something this client did not emit.
   */
  boolean wasIssued(int id) {
    return id >= 0 && (wrapped || id < nextId);
  }

  int size() {
    return pending == null ? 0 : pending.size();
  }

  private Pending take(int id) {
    if (pending == null) return null;
    Pending p = pending.remove(id);
    if (pending.isEmpty()) pending = null;
    return p;
  }

  private static final class Pending {
    final CompletableFuture<String> future;
    final Scheduler.Timer timer;

    Pending(CompletableFuture<String> future, Scheduler.Timer timer) {
      this.future = future;
      this.timer = timer;
    }
  }
}
