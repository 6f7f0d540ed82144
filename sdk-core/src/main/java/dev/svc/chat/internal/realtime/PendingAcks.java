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
 *
 * <p>An emit may come with a {@code read} future, completed once its frame no longer waits in the socket's queue
 * as far as the client can tell: at its acknowledgement, at a failure before it was sent, or when the connection
 * ends. The ack timer starts when the frame is queued, not when the network took it, so an emit that timed out
 * may still be queued: its {@code read} completes at its late acknowledgement (or the connection's end).
 */
final class PendingAcks {
  private final Scheduler scheduler;
  private final long timeoutMillis;
  /** The emits waiting for their acknowledgement by id; null when none does (an idle client holds no map). */
  private Map<Integer, Pending> pending;
  /** The {@code read} futures of emits whose acknowledgement timed out, by id; null when none. */
  private Map<Integer, CompletableFuture<Void>> late;
  private int nextId;
  private boolean wrapped;

  PendingAcks(Scheduler scheduler, long timeoutMillis) {
    this.scheduler = scheduler;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Registers {@code future} for the next ack id, with a timeout, and returns the id; {@code read} (or null) as
   * the class comment says.
   */
  int register(final String event, CompletableFuture<String> future, CompletableFuture<Void> read) {
    final int id = nextId;
    if (nextId == Integer.MAX_VALUE) wrapped = true;
    nextId = nextId == Integer.MAX_VALUE ? 0 : nextId + 1;
    Scheduler.Timer timer = scheduler.schedule(new Runnable() {
      @Override
      public void run() {
        Pending p = take(id);
        if (p == null) return;
        if (p.read != null) {
          if (late == null) late = new HashMap<>(4);
          late.put(id, p.read);
        }
        p.future.completeExceptionally(
            new TransportException("no acknowledgement of '" + event + "' within " + timeoutMillis + " ms"));
      }
    }, timeoutMillis);
    if (pending == null) pending = new HashMap<>(4);
    pending.put(id, new Pending(future, read, timer));
    return id;
  }

  /**
   * Completes the emit with ack id {@code id}; returns false for an unknown (foreign, or late without a
   * {@code read}) id. A late one's {@code read} completes.
   */
  boolean complete(int id, String argsJson) {
    Pending p = take(id);
    if (p == null) {
      CompletableFuture<Void> read = late == null ? null : late.remove(id);
      if (read == null) return false;
      if (late.isEmpty()) late = null;
      read.complete(null);
      return true;
    }
    p.timer.cancel();
    if (p.read != null) p.read.complete(null);
    p.future.complete(argsJson);
    return true;
  }

  /** Fails the emit with ack id {@code id}, if still pending. */
  void fail(int id, Throwable error) {
    Pending p = take(id);
    if (p == null) return;
    p.timer.cancel();
    if (p.read != null) p.read.complete(null);
    p.future.completeExceptionally(error);
  }

  /** Fails every pending emit, such as when the connection is lost. */
  void failAll(Throwable error) {
    if (late != null) {
      for (CompletableFuture<Void> read : late.values()) read.complete(null); // the socket and its queue are gone
      late = null;
    }
    if (pending == null) return;
    List<Pending> all = new ArrayList<>(pending.values());
    pending = null;
    for (Pending p : all) {
      p.timer.cancel();
      if (p.read != null) p.read.complete(null);
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
    final CompletableFuture<Void> read;
    final Scheduler.Timer timer;

    Pending(CompletableFuture<String> future, CompletableFuture<Void> read, Scheduler.Timer timer) {
      this.future = future;
      this.read = read;
      this.timer = timer;
    }
  }
}
