package dev.svc.chat.internal;

import dev.svc.chat.internal.events.EventHub;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.internal.outbox.Outbox;
import dev.svc.chat.internal.realtime.EngineListener;
import dev.svc.chat.internal.realtime.EventDecoder;
import dev.svc.chat.internal.realtime.JoinedRoom;
import dev.svc.chat.internal.realtime.InboundGate;
import dev.svc.chat.internal.realtime.RealtimeEngine;
import dev.svc.chat.internal.realtime.StartPositions;
import dev.svc.chat.internal.recovery.DeliverySink;
import dev.svc.chat.internal.recovery.Recovery;

/**
 * Receives the engine's reports on the actor and routes them: decoded messages, changes and receipts through
 * {@link Recovery} (once, in order, with what was missed), every other event straight to the handlers,
 * and state changes to the joined room, the recovery, the handlers (ahead of any backlog) and the client's
 * token refresh. A stage of the inbound pipeline ({@code InboundPipeline}).
 */
final class EventRouter implements EngineListener, DeliverySink {
  /** What the client does when the gateway's token expired and may be refreshed. */
  interface TokenExpiry {
    /** The gateway's token expired: refresh it (shared with REST) and reconnect, once. */
    void onGatewayTokenExpired();

    /** The connection was accepted: a later expiry may be refreshed again. */
    void onConnected();

    /**
     * A connection attempt ended without the gateway refusing its token (cut, timed out, failed): the token
     * waited for a gateway and may have expired for real by the next handshake.
     */
    void onConnectionLost();
  }

  private final EventHub hub;
  private final Log log;
  private Recovery recovery;
  private JoinedRoom joinedRoom;
  private Outbox outbox;
  private RealtimeEngine engine;
  private TokenExpiry tokenExpiry;

  /** Whether recovery reads what was missed, and so restores the events the inbound gate sheds. */
  private final boolean recovers;

  EventRouter(EventHub hub, boolean recovers, Log log) {
    this.hub = hub;
    this.recovers = recovers;
    this.log = log;
  }

  /** Completes the wiring; the client calls it once, before connecting. */
  void wire(Recovery recovery, JoinedRoom joinedRoom, Outbox outbox, RealtimeEngine engine, TokenExpiry tokenExpiry) {
    this.recovery = recovery;
    this.outbox = outbox;
    this.joinedRoom = joinedRoom;
    this.engine = engine;
    this.tokenExpiry = tokenExpiry;
  }

  @Override
  public void onStateChange(ConnectionStateChange change) {
    joinedRoom.onStateChange(change);
    outbox.onConnectionState(change.current());
    ConnectionState now = change.current();
    if (now == ConnectionState.RECONNECTING && change.reason() != ConnectionReason.TOKEN_EXPIRED) {
      // a lost connection, or a refresh that failed (TOKEN_REFRESH_FAILED): no fresh token is untried now
      tokenExpiry.onConnectionLost();
    }
    if (now == ConnectionState.RECONNECTING || now == ConnectionState.DISCONNECTED) {
      recovery.onConnectionLost(change.reason());
    } else if (now == ConnectionState.CLOSED) {
      recovery.close();
    }
    hub.publishAhead(EventType.CONNECTION_STATE, change); // never behind a backlog of events
  }

  @Override
  public boolean restoresShedEvents() {
    return recovers;
  }

  @Override
  public void onEventsShed() {
    recovery.onEventsShed();
  }

  @Override
  public void onConnectionAccepted(StartPositions positions) {
    tokenExpiry.onConnected();
    joinedRoom.onConnectionAccepted();
    recovery.onConnected(positions);
  }

  @Override
  public void onTokenExpired() {
    tokenExpiry.onGatewayTokenExpired();
  }

  @Override
  public void onClientError(ClientError error) {
    report(error);
  }

  @Override
  public void onInboundBatch(boolean start) {
    if (start) {
      hub.beginBatch();
    } else {
      hub.endBatch();
    }
  }

  @Override
  public void onEvent(EventDecoder.Event<?> event) {
    if (event.type == EventType.NEW_MESSAGE) {
      recovery.onNewMessage((Message) event.payload);
    } else if (event.type == EventType.MESSAGE_UPDATED) {
      recovery.onMessageUpdated((Message) event.payload);
    } else if (event.type == EventType.ROOM_READ) {
      recovery.onReceipt((Receipt) event.payload);
    } else {
      publishDecoded(event);
    }
  }

  private <T> void publishDecoded(EventDecoder.Event<T> event) {
    hub.publish(event.type, event.payload);
  }

  @Override
  public <T> void publish(EventType<T> type, T payload) {
    hub.publish(type, payload);
  }

  @Override
  public void whenHandled(final Runnable next) {
    if (hub.undelivered() < InboundGate.LOW_WATER) {
      next.run(); // on the actor, where recovery asks
    } else {
      hub.whenCaughtUp(() -> engine.actor().execute(next));
    }
  }

  @Override
  public boolean wakeWhenCaughtUp(Runnable wake) {
    return hub.whenCaughtUpLater(wake);
  }

  @Override
  public void report(ClientError error) {
    if (log.isDebug()) log.debug(error.toString());
    hub.publish(EventType.CLIENT_ERROR, error);
  }
}
