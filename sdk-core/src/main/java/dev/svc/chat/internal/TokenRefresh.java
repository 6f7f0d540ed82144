package dev.svc.chat.internal;

import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import dev.svc.chat.TokenRefresher;

/**
 * The single flight of token refreshes of one client, shared by REST and the realtime connection: while a
 * refresh is under way every trigger joins it, and a trigger that saw an older token than the current one
 * gets the current one without a refresh. The {@link TokenRefresher} runs on the callback executor, never on
 * the engine's actor or an OkHttp thread.
 */
public final class TokenRefresh {
  /** Where the refreshed token goes. */
  public interface Target {
    /** Returns the token in use now, or null. */
    String currentToken();

    /** Adopts a new token (for REST at once, and for the realtime connection). */
    void adopt(String token);
  }

  private final TokenRefresher refresher;
  private final Target target;
  private final CallbackExecutor callbacks;
  private final Log log;
  private CompletableFuture<String> inFlight;

  public TokenRefresh(TokenRefresher refresher, Target target, CallbackExecutor callbacks, Log log) {
    this.refresher = refresher;
    this.target = target;
    this.callbacks = callbacks;
    this.log = log;
  }

  /**
   * Returns a future of a token newer than {@code expiredToken}: the current one if it already is newer,
   * the refresh under way if there is one, else a new refresh.
   */
  public CompletableFuture<String> after(String expiredToken) {
    final CompletableFuture<String> result;
    synchronized (this) {
      String now = target.currentToken();
      if (now != null && !now.equals(expiredToken)) return CompletableFuture.completedFuture(now);
      if (inFlight != null) return inFlight;
      result = new CompletableFuture<>();
      inFlight = result;
    }
    log.info("the session token expired; refreshing it");
    callbacks.execute(new Runnable() {
      @Override
      public void run() {
        CompletableFuture<String> fetched;
        try {
          fetched = refresher.refreshToken();
          if (fetched == null) throw new NullPointerException("the TokenRefresher returned a null future");
        } catch (RuntimeException e) {
          finish(result, null, e);
          return;
        }
        fetched.whenComplete(new BiConsumer<String, Throwable>() {
          @Override
          public void accept(String token, Throwable error) {
            finish(result, token, error);
          }
        });
      }
    });
    return result;
  }

  private void finish(CompletableFuture<String> result, String token, Throwable error) {
    if (error == null && (token == null || token.trim().isEmpty() || token.startsWith("sk_"))) {
      error = new IllegalStateException("the TokenRefresher gave no usable session token");
    }
    if (error == null) {
      synchronized (this) {
        target.adopt(token);
        inFlight = null;
      }
      result.complete(token);
    } else {
      synchronized (this) {
        inFlight = null;
      }
      log.warn("refreshing the session token failed", error);
      result.completeExceptionally(error);
    }
  }
}
