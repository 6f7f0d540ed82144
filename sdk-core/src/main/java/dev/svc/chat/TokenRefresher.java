package dev.svc.chat;

import java.util.concurrent.CompletableFuture;

/**
 * Fetches a new session token when the service says the current one expired. Installed with
 * {@link SvcOptions.Builder#tokenRefresher(TokenRefresher)}; the session manager installs one for you.
 *
 * <p>With a refresher installed, a REST answer {@code 401 token_expired} triggers one refresh and one retry
 * of that request with the new token, and a gateway {@code token_expired} (a refused handshake or the
 * {@code session-expired} event) triggers a refresh and a reconnect with the new token. Triggers that
 * overlap share one refresh: the client never calls {@link #refreshToken()} again while a previous call's
 * future is incomplete. An {@code unauthorized} answer (an invalid token, not an expired one) never
 * refreshes.
 *
 * <p>The client calls {@link #refreshToken()} on a thread of its own, never on the callback executor nor
 * on the thread of its connection: the method may block (a synchronous HTTP call, for example), and an event
 * handler may block on a future of the same client that waits for this refresh.
 */
public interface TokenRefresher {
  /**
   * Returns a future of a new session token for the same user. It may complete on any thread. A failed
   * future (or a null token) makes the request or the reconnect that needed it fail with the original
   * {@code token_expired} {@link ApiException}.
   *
   * @return a future with the new token
   */
  CompletableFuture<String> refreshToken();
}
