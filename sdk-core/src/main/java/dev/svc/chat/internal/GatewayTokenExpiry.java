package dev.svc.chat.internal;

import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import java.util.function.BooleanSupplier;

import dev.svc.chat.ChatStateException;
import dev.svc.chat.internal.realtime.RealtimeEngine;

/**
 * The gateway said the token expired (a refusal, or {@code session-expired} on an open connection): refresh it
 * through the shared single flight and reconnect with the fresh one, once per accepted connection, so that a
 * gateway whose clock disagrees cannot drive a refresh loop. Without a refresher, or when the refresh fails,
 * the engine is told and stays DISCONNECTED. Runs on the actor.
 */
final class GatewayTokenExpiry implements EventRouter.TokenExpiry {
  private final TokenRefresh tokenRefresh;
  private final RealtimeEngine engine;
  private final BooleanSupplier wantsConnection;
  private final Log log;
  /** Whether the gateway said token_expired since the last accepted connection. */
  private boolean refreshedSinceConnected;

  GatewayTokenExpiry(TokenRefresh tokenRefresh, RealtimeEngine engine, BooleanSupplier wantsConnection, Log log) {
    this.tokenRefresh = tokenRefresh;
    this.engine = engine;
    this.wantsConnection = wantsConnection;
    this.log = log;
  }

  @Override
  public void onConnected() {
    refreshedSinceConnected = false;
  }

  @Override
  public void onGatewayTokenExpired() {
    if (tokenRefresh == null || !wantsConnection.getAsBoolean()) {
      engine.refreshFailed(new ChatStateException("the session token expired"));
      return;
    }
    if (refreshedSinceConnected) {
      log.warn("the gateway refused a freshly refreshed token as expired; not refreshing again", null);
      engine.refreshFailed(new ChatStateException("the gateway refused a freshly refreshed token as expired"));
      return;
    }
    refreshedSinceConnected = true;
    // the engine's token is the one that expired; the actor runs this, so it cannot have moved on
    tokenRefresh.after(engine.tokenInActor()).whenComplete((fresh, error) -> {
      if (error != null || fresh == null) {
        engine.refreshFailed(error != null ? CallbackExecutor.unwrap(error) : new ChatStateException("no token"));
      } else if (wantsConnection.getAsBoolean()) {
        engine.connect(fresh); // adopt() did when the token is new; this covers one adopted already
      }
    });
  }
}
