package dev.svc.chat.internal.realtime;

import dev.svc.chat.ApiException;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.json.ServiceError;
import dev.svc.chat.internal.util.Log;

/**
 * The engine's wait for a fresh token after the gateway said the token expired (a refused handshake, or
 * {@code session-expired} on an open connection). With a refresher the engine waits RECONNECTING while the
 * client refreshes ({@link EngineListener#onTokenExpired}); the fresh token arrives as every new token does
 * ({@link RealtimeEngine#tokenChanged}). A refresh that failed transiently (the tenant's backend unreachable
 * or failing) is asked for again after the capped reconnect backoff, the state staying RECONNECTING with the
 * reason {@link ConnectionReason#TOKEN_REFRESH_FAILED} and the delay; only a refusal ends the wait,
 * DISCONNECTED ({@link ConnectionReason#TOKEN_EXPIRED}). Without a refresher an expired token ends the
 * connection at once. Confined to the actor.
 */
final class TokenRenewal {
  private final RealtimeEngine engine;
  private final ReconnectSchedule reconnects;
  private final EngineListener listener;
  /** Whether an expired token is refreshed by the client (then the engine waits for the new token). */
  private final boolean refreshes;
  private final Log log;
  /** The refusal of the latest expired token, for the outcome if no fresh one comes. */
  private ApiException expiredBy;

  TokenRenewal(RealtimeEngine engine, ReconnectSchedule reconnects, EngineListener listener, boolean refreshes,
      Log log) {
    this.engine = engine;
    this.reconnects = reconnects;
    this.listener = listener;
    this.refreshes = refreshes;
    this.log = log;
  }

  /** The gateway said the token expired: wait for a fresh one, or end without a refresher. */
  void expired(ApiException cause) {
    if (!refreshes) {
      engine.stop(ConnectionState.DISCONNECTED, ConnectionReason.TOKEN_EXPIRED, cause, false);
      return;
    }
    // the gateway ended the session: no DISCONNECT from us
    engine.dropConnection(new TransportException("the session token has expired; reconnecting with a fresh one", cause));
    expiredBy = cause;
    engine.setState(ConnectionState.RECONNECTING, ConnectionReason.TOKEN_EXPIRED, cause, reconnects.attempt() + 1,
        -1);
    listener.onTokenExpired();
  }

  /** The refresh was refused (or cannot be had): the connection ends DISCONNECTED with the expiry as cause. */
  void refused(Throwable error) {
    if (!engine.awaitsToken()) return;
    log.info("the expired token could not be refreshed: " + error);
    ApiException cause = expiredBy != null ? expiredBy
        : new ApiException(401, "token_expired", ServiceError.TOKEN_EXPIRED);
    engine.stop(ConnectionState.DISCONNECTED, ConnectionReason.TOKEN_EXPIRED, cause, false);
  }

  /**
   * The refresh failed transiently: stays RECONNECTING and asks for it again after the reconnect backoff (or at
   * once on {@code reconnectNow}); a new token meanwhile connects and cancels that.
   */
  void failed(Throwable error) {
    if (!engine.awaitsToken() || reconnects.pending()) return; // a retry is already set
    long delay = reconnects.next();
    log.info("refreshing the expired token failed (" + error.getClass().getSimpleName() + "); asking again in "
        + delay + " ms");
    engine.setState(ConnectionState.RECONNECTING, ConnectionReason.TOKEN_REFRESH_FAILED, error, reconnects.attempt(),
        delay);
    engine.answerConnectWaiters(new TransportException("could not refresh the expired token; retrying", error));
    reconnects.schedule(delay, () -> {
      if (engine.awaitsToken()) listener.onTokenExpired();
    });
  }
}
