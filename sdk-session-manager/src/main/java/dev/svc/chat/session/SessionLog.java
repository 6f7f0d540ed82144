package dev.svc.chat.session;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.LogLevel;
import org.jspecify.annotations.Nullable;

/** The session manager's log, through the app's logger, which may neither filter badly nor throw into it. */
final class SessionLog {
  private final ChatLogger logger;

  SessionLog(ChatLogger logger) {
    this.logger = logger;
  }

  void log(LogLevel level, String message, @Nullable Throwable error) {
    try {
      if (logger.isLoggable(level)) logger.log(level, message, error);
    } catch (RuntimeException ignored) {
      // a broken logger must not break the session
    }
  }

  /** Starts a fetch; a fetcher that throws instead of failing its future fails the future returned. */
  static java.util.concurrent.CompletableFuture<Session> fetch(SessionFetcher fetcher) {
    try {
      return fetcher.fetch();
    } catch (RuntimeException e) {
      java.util.concurrent.CompletableFuture<Session> failed = new java.util.concurrent.CompletableFuture<>();
      failed.completeExceptionally(e);
      return failed;
    }
  }

  /** Returns the failure a future's {@link CompletionException} or {@link ExecutionException} wraps. */
  static @Nullable Throwable cause(@Nullable Throwable e) {
    while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }
}
