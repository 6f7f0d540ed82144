package dev.svc.chat.internal.outbox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import dev.svc.chat.ChatStateException;
import dev.svc.chat.Message;
import dev.svc.chat.PendingSend;

/**
 * The outbox's sends as the app sees them, from any thread: the futures the app holds until each completes, so
 * that a close ends every one of them, and the snapshots {@link Outbox#pendingSends()} answers, by the order the
 * entries were queued in. The actor writes the snapshots; the maps are concurrent so any thread may read them.
 */
final class OpenSends {
  private final ConcurrentSkipListMap<Long, PendingSend> pending = new ConcurrentSkipListMap<>();
  private final ConcurrentHashMap<CompletableFuture<Message>, OutboxEntry> open = new ConcurrentHashMap<>();

  /** Holds {@code result}, the app's future of {@code entry}, until it completes. Any thread. */
  void opened(final CompletableFuture<Message> result, OutboxEntry entry) {
    open.put(result, entry);
    result.whenComplete((v, e) -> open.remove(result));
  }

  /** Returns the pending sends, oldest first; a snapshot. Any thread. */
  List<PendingSend> pendingSends() {
    return Collections.unmodifiableList(new ArrayList<>(pending.values()));
  }

  /** Shows the entry's state now, unless it ended. On the actor. */
  void publish(OutboxEntry e) {
    if (!e.done) pending.put(e.key, e.snapshot());
  }

  /** Takes an ended entry out of the pending sends. On the actor. */
  void ended(OutboxEntry e) {
    pending.remove(e.key);
  }

  /** Forgets every pending send (all ended). */
  void clearPending() {
    pending.clear();
  }

  /**
   * Ends every future still open: with {@code keep}, one whose record is durable completes with its pending
   * message ({@code seq} 0), any other fails with {@code closed}. Any thread (the closing one).
   */
  void endAll(boolean keep, ChatStateException closed) {
    pending.clear();
    for (Map.Entry<CompletableFuture<Message>, OutboxEntry> e : new ArrayList<>(open.entrySet())) {
      OutboxEntry entry = e.getValue();
      if (keep && entry.kept) {
        e.getKey().complete(entry.snapshot().pendingMessage());
      } else {
        e.getKey().completeExceptionally(closed);
      }
    }
  }
}
