package dev.svc.chat.internal.realtime;

import dev.svc.chat.ApiException;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.json.ServiceError;
import dev.svc.chat.internal.util.Log;

/**
 * How a {@link RealtimeEngine} reads the reports of its connections ({@link GatewayConnection.Owner}): a report
 * of a connection that is no longer the current one is dropped (or, for the old connection of a token
 * refresh, handed to the {@link Handover}); a refused handshake is judged (a failing gateway, 5xx or
 * {@code rate_limited}, is retried with backoff; {@code token_expired} waits for a fresh token through
 * {@link TokenRenewal}; any other refusal ends the connection); the gateway's DISCONNECT ends it. Actor only.
 */
final class ConnectionReports implements GatewayConnection.Owner {
  private final RealtimeEngine engine;
  private final Handover handover;
  private final TokenRenewal renewal;
  private final EngineListener listener;
  private final Log log;

  ConnectionReports(RealtimeEngine engine, Handover handover, TokenRenewal renewal, EngineListener listener,
      Log log) {
    this.engine = engine;
    this.handover = handover;
    this.renewal = renewal;
    this.listener = listener;
    this.log = log;
  }

  @Override
  public void accepted(GatewayConnection conn) {
    if (engine.isCurrent(conn)) engine.onAccepted(conn);
  }

  @Override
  public void lost(GatewayConnection conn, ConnectionReason reason, RuntimeException cause) {
    engine.onTransportLost(conn, reason, cause);
  }

  /** The refusal of the CONNECT ({@code error} null: unreadable, so retried with backoff). */
  @Override
  public void refused(GatewayConnection conn, ServiceError error) {
    if (!engine.isCurrent(conn)) return;
    if (error == null) { // not a refusal the client can read: neither assume "unauthorized" nor give up
      engine.onTransportLost(conn, ConnectionReason.PROTOCOL_ERROR,
          new TransportException("unreadable CONNECT_ERROR"));
      return;
    }
    ApiException cause = error.toApiException();
    if (cause.status() >= 500 || cause.status() == 429) {
      // the gateway failed (or is overloaded) and did not judge the token: retried with backoff, as the outbox
      // retries a send answered so; only a refusal (4xx) stops the client
      log.info("the gateway failed the handshake: " + error.code + "; retrying");
      engine.onTransportLost(conn, ConnectionReason.HANDSHAKE_FAILED, cause);
      return;
    }
    log.info("the gateway refused the handshake: " + error.code);
    if (cause.isTokenExpired()) {
      renewal.expired(cause);
    } else {
      engine.stop(ConnectionState.DISCONNECTED, "unauthorized".equals(error.code) ? ConnectionReason.UNAUTHORIZED
          : ConnectionReason.REFUSED, cause, false);
    }
  }

  /** The gateway's DISCONNECT: the end of a handover's old connection, an expired session, or the end. */
  @Override
  public void disconnected(GatewayConnection conn) {
    if (handover.onLost(conn) || !engine.isCurrent(conn)) return;
    if (conn.sessionExpired) {
      renewal.expired(new ApiException(401, "token_expired", ServiceError.TOKEN_EXPIRED));
    } else {
      engine.stop(ConnectionState.DISCONNECTED, ConnectionReason.SERVER_DISCONNECT,
          new TransportException("the gateway disconnected the client"), false);
    }
  }

  @Override
  public void event(GatewayConnection conn, EventDecoder.Event<?> event) {
    if (!engine.isCurrent(conn)) {
      handover.onEvent(conn, event); // the old connection of a token refresh still delivers
    } else if (!handover.hold(event)) {
      listener.onEvent(event);
    }
  }

  @Override
  public void clientError(GatewayConnection conn, ClientError error) {
    if (engine.isCurrent(conn)) listener.onClientError(error);
  }

  @Override
  public String token() {
    return engine.tokenInActor();
  }
}
