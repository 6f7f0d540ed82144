package dev.svc.chat.internal.outbox;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ChatStateException;
import dev.svc.chat.internal.util.SerialQueue;

/** Deletes every entry a user left in the outbox's persistence (the user's logout). */
final class OutboxWipe {
  private OutboxWipe() {
  }

  /** Deletes the entries of {@code user} on {@code io}; the future completes there. */
  static CompletableFuture<Void> run(final OutboxPersistence store, SerialQueue io, final String user) {
    final CompletableFuture<Void> result = new CompletableFuture<>();
    boolean queued = io.execute(() -> {
      try {
        for (OutboxEntry e : store.load(user, 0, (kind, message, cause) -> { })) store.delete(e.handle);
        result.complete(null);
      } catch (IOException e) {
        result.completeExceptionally(new ChatStateException("could not delete the outbox entries: " + e.getMessage()));
      }
    });
    if (!queued) result.completeExceptionally(new ChatStateException("the client's I/O queue is shut down"));
    return result;
  }
}
