package dev.svc.chat.internal.rooms;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

import dev.svc.chat.Receipt;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.CallbackExecutor;

/**
 * The app's reads ({@code markRead}) that could not reach the service: kept like a send, the latest per room,
 * and sent again when a connection is accepted; the app's future completes when one is sent. The count already
 * dropped when the app marked it (a receipt applied locally never moves back). A refusal other than the
 * network's fails the future. Thread-safe.
 */
public final class ReadQueue {
  private final BiFunction<String, String, CompletableFuture<Receipt>> send;
  /** Told of each read the service confirmed (the store forgets its pending read). */
  private volatile java.util.function.Consumer<Receipt> confirmed = r -> { };
  /** Set by {@link #close}: a failure that comes later ends its read the same way. Guarded by this. */
  private Throwable closedBy;
  private Map<String, Receipt> keptAtClose;
  /** Room to its newest waiting read: the message id and the futures waiting on it. Guarded by this. */
  private final Map<String, Waiting> waiting = new LinkedHashMap<>();

  private static final class Waiting {
    String messageId;
    final List<CompletableFuture<Receipt>> futures = new ArrayList<>(1);
  }

  /** Creates a queue that sends a read with {@code send} (the REST call, room and message id). */
  public ReadQueue(BiFunction<String, String, CompletableFuture<Receipt>> send) {
    this.send = send;
  }

  /** Tells {@code confirmed} of each read the service confirmed. */
  public void onConfirmed(java.util.function.Consumer<Receipt> confirmed) {
    this.confirmed = confirmed;
  }

  /**
   * Queues the reads a store kept from an earlier run (the service never confirmed them): they go out with the next
   * connection, with nobody waiting on them.
   */
  public void restore(List<Receipt> kept) {
    synchronized (this) {
      for (Receipt r : kept) {
        Waiting w = waiting.get(r.roomId());
        if (w == null) {
          w = new Waiting();
          waiting.put(r.roomId(), w);
          w.messageId = r.messageId();
        }
      }
    }
  }

  /** Keeps a read for the next connection without trying it now (no session yet); returns its future. */
  public CompletableFuture<Receipt> later(String roomId, String messageId) {
    CompletableFuture<Receipt> result = new CompletableFuture<>();
    synchronized (this) {
      if (closedBy != null) {
        result.completeExceptionally(closedBy);
        return result;
      }
      Waiting w = waiting.get(roomId);
      if (w == null) {
        w = new Waiting();
        waiting.put(roomId, w);
      }
      w.messageId = messageId;
      w.futures.add(result);
    }
    return result;
  }

  /** Sends a read; one the network failed waits for the next connection. */
  public CompletableFuture<Receipt> markRead(String roomId, String messageId) {
    CompletableFuture<Receipt> result = new CompletableFuture<>();
    attempt(roomId, messageId, result);
    return result;
  }

  private void attempt(final String roomId, final String messageId, final CompletableFuture<Receipt> result) {
    send.apply(roomId, messageId).whenComplete((receipt, error) -> {
      if (error == null) {
        confirmed.accept(receipt);
        result.complete(receipt);
        return;
      }
      Throwable cause = CallbackExecutor.unwrap(error);
      synchronized (this) {
        if (closedBy != null) { // the client closed while this attempt was out: ended as close() ends the others
          finish(result, messageId, keptAtClose == null ? null : keptAtClose.get(roomId), closedBy);
          return;
        }
        if (!(cause instanceof TransportException)) {
          result.completeExceptionally(cause);
          return;
        }
        Waiting w = waiting.get(roomId);
        if (w == null) {
          w = new Waiting();
          waiting.put(roomId, w);
        }
        w.messageId = messageId; // the room's later read covers the earlier ones
        w.futures.add(result);
      }
    });
  }

  /** A connection was accepted: the waiting reads go out again, the latest of each room. */
  public void onConnected() {
    List<Map.Entry<String, Waiting>> all;
    synchronized (this) {
      if (waiting.isEmpty()) return;
      all = new ArrayList<>(waiting.entrySet());
      waiting.clear();
    }
    for (Map.Entry<String, Waiting> e : all) {
      final Waiting w = e.getValue();
      CompletableFuture<Receipt> sent = new CompletableFuture<>();
      sent.whenComplete((receipt, error) -> {
        for (CompletableFuture<Receipt> f : w.futures) {
          if (error == null) {
            f.complete(receipt);
          } else {
            f.completeExceptionally(error);
          }
        }
      });
      attempt(e.getKey(), w.messageId, sent);
    }
  }

  /** Returns how many rooms have a read waiting (tests). */
  public synchronized int waitingRooms() {
    return waiting.size();
  }

  /**
   * Ends every waiting read (the client closed): one that {@code kept} (the store's pending reads, by room; null:
   * none) holds for its message is sent at the next start, and its futures complete with that receipt marked
   * {@link Receipt#pending()}; the others fail with {@code error}.
   */
  public void close(Throwable error, Map<String, Receipt> kept) {
    Map<String, Waiting> all;
    synchronized (this) {
      closedBy = error;
      keptAtClose = kept;
      all = new LinkedHashMap<>(waiting);
      waiting.clear();
    }
    for (Map.Entry<String, Waiting> e : all.entrySet()) {
      Receipt stored = kept == null ? null : kept.get(e.getKey());
      for (CompletableFuture<Receipt> f : e.getValue().futures) finish(f, e.getValue().messageId, stored, error);
    }
  }

  /** Completes {@code f} with the kept read of {@code messageId} marked pending, or fails it with {@code error}. */
  private static void finish(CompletableFuture<Receipt> f, String messageId, Receipt kept, Throwable error) {
    if (kept != null && kept.messageId().equals(messageId)) {
      f.complete(kept.asPending());
    } else {
      f.completeExceptionally(error);
    }
  }
}
