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
   * Returns a future of a new session token for the same user. It may complete on any thread, and the method
   * may block.
   *
   * <p>A failed future says either "refused" or "failed for now", and the client reads it so:
   * <ul>
   *   <li>refused: an {@link ApiException} with a 4xx status other than 408 and 429 (the tenant's route
   *       answered 401 or 403: the user is signed out), or a {@link ChatStateException}. The connection that
   *       needed the token ends {@link ConnectionState#DISCONNECTED} with {@link ConnectionReason#TOKEN_EXPIRED},
   *       and is not refreshed again until the app connects or gives a token;</li>
   *   <li>failed for now: anything else, such as a {@link TransportException}, an {@link java.io.IOException}
   *       or an {@link ApiException} with a 5xx, 408 or 429 status (the tenant's backend is unreachable or
   *       failing). The connection stays {@link ConnectionState#RECONNECTING} (reason
   *       {@link ConnectionReason#TOKEN_REFRESH_FAILED}, with the retry delay) and the client calls this
   *       method again after its capped reconnect backoff, for as long as the app wants the connection.</li>
   * </ul>
   * Either way, a REST request that needed the token fails with the original {@code token_expired}
   * {@link ApiException}. A null token, or the very token that expired, is a refusal too.
   *
   * @return a future with the new token
   */
  CompletableFuture<String> refreshToken();
}
