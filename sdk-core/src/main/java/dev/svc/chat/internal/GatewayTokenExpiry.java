package dev.svc.chat.internal;

import dev.svc.chat.internal.auth.Credentials;
import dev.svc.chat.internal.auth.RefreshFailures;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import java.util.function.BooleanSupplier;

import dev.svc.chat.ChatStateException;
import dev.svc.chat.internal.json.ServiceError;
import dev.svc.chat.internal.realtime.RealtimeEngine;

/**
 * The gateway said the token expired (a refusal, or {@code session-expired} on an open connection): asks the
 * {@link Credentials} to refresh it. A gateway that refuses the fresh token as expired at its first handshake
 * disagrees with the token's issuer about the time: refreshing again would loop, so the client gives up. A
 * fresh token whose handshake was cut, or failed, before the gateway refused it has waited out an outage and
 * may have expired for real: it is refreshed again (each such round costs a failed attempt, so the reconnect
 * backoff paces it). The fresh token reaches the engine as every new token does, through
 * {@link Credentials.Listener#tokenChanged}. A refresh that failed transiently (see {@link RefreshFailures})
 * is asked for again by the engine after its backoff; a failure reported as RECONNECTING that way also clears
 * {@link #freshTokenUntried} (through {@link #onConnectionLost}), since no fresh token came. Without a
 * refresher, or when the refresh is refused, the engine is told and stays DISCONNECTED. Runs on the actor.
 */
final class GatewayTokenExpiry implements EventRouter.TokenExpiry {
  private final Credentials credentials;
  private final RealtimeEngine engine;
  private final BooleanSupplier wantsConnection;
  private final Log log;
  /**
   * Whether the current token is a refresh's answer that no gateway has yet accepted or failed to answer: a
   * refusal of it as expired is then a disagreement about the time, not age.
   */
  private boolean freshTokenUntried;

  GatewayTokenExpiry(Credentials credentials, RealtimeEngine engine, BooleanSupplier wantsConnection, Log log) {
    this.credentials = credentials;
    this.engine = engine;
    this.wantsConnection = wantsConnection;
    this.log = log;
  }

  @Override
  public void onConnected() {
    freshTokenUntried = false;
  }

  @Override
  public void onConnectionLost() {
    freshTokenUntried = false;
  }

  @Override
  public void onGatewayTokenExpired() {
    if (!credentials.refreshes() || !wantsConnection.getAsBoolean()) {
      engine.refreshRefused(new ChatStateException(ServiceError.TOKEN_EXPIRED));
      return;
    }
    if (freshTokenUntried) {
      log.warn("the gateway refused a freshly refreshed token as expired; not refreshing again", null);
      engine.refreshRefused(new ChatStateException("the gateway refused a freshly refreshed token as expired"));
      return;
    }
    freshTokenUntried = true;
    // the engine's token is the one that expired; the actor runs this, so it cannot have moved on
    final String expired = engine.tokenInActor();
    credentials.refresh(expired).whenComplete((fresh, error) -> {
      if (error != null) {
        Throwable cause = CallbackExecutor.unwrap(error);
        if (RefreshFailures.isRefusal(cause)) {
          engine.refreshRefused(cause);
        } else {
          engine.refreshFailed(cause); // the backend may answer again: asked after the backoff
        }
      } else if (fresh.equals(expired)) {
        // no change reaches the engine: connecting again with the refused token would only be refused again
        engine.refreshRefused(new ChatStateException("the TokenRefresher answered with the expired token"));
      } // else the credentials' listener brought the fresh token to the engine (or it had it already)
    });
  }
}
