package dev.svc.chat.internal.realtime;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import dev.svc.chat.ChatStateException;
import dev.svc.chat.internal.util.OpenSet;
import dev.svc.chat.internal.util.Scheduler;

/**
 * The futures of commands posted to an engine's actor and not yet complete: failed when the engine closes, so
 * that a command the closed actor never runs (or runs after the close) cannot leave its future pending. Any
 * thread.
 */
final class OpenCommands {
  private final Scheduler actor;
  private final OpenSet<CompletableFuture<?>> open = new OpenSet<>();

  OpenCommands(Scheduler actor) {
    this.actor = actor;
  }

  /**
   * Runs {@code command} on the actor; {@code result} is its outcome. Kept until it completes: added before the
   * post, so a close that shuts the actor down after the post sees it ({@link #failAll}).
   */
  void post(final CompletableFuture<?> result, Runnable command) {
    open.add(result);
    result.whenComplete(new BiConsumer<Object, Throwable>() {
      @Override
      public void accept(Object v, Throwable e) {
        open.remove(result);
      }
    });
    if (!actor.execute(command)) failAll();
  }

  /** Fails every open command with {@code ChatStateException("the client is closed")}. */
  void failAll() {
    for (Object f : open.toArray()) {
      ((CompletableFuture<?>) f).completeExceptionally(new ChatStateException("the client is closed"));
    }
  }
}
