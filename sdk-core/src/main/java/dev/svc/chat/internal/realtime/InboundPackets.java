package dev.svc.chat.internal.realtime;

import java.util.List;

import dev.svc.chat.ApiException;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.json.ServiceError;
import dev.svc.chat.internal.socketio.EngineIoCodec;
import dev.svc.chat.internal.socketio.EngineIoPacket;
import dev.svc.chat.internal.socketio.MalformedFrameException;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;

/**
 * Reads what the gateway sends on the engine's current connection: the Engine.IO handshake and heartbeat,
 * and the Socket.IO packets (the answer to CONNECT, events, acknowledgements). What it cannot read or trust
 * (a malformed frame, an acknowledgement never asked for, a stray binary frame) is reported and the
 * connection replaced, so that recovery fills whatever it carried. Confined to the engine's actor.
 */
final class InboundPackets {
  private final RealtimeEngine engine;
  private final EngineListener listener;
  private final Log log;
  /** Reads on the actor the events the reader thread left unread; made on first use. Actor only. */
  private EngineListener.ReadAhead actorReader;
  private boolean actorReaderMade;

  private final InboundGate gate;

  InboundPackets(RealtimeEngine engine, EngineListener listener, InboundGate gate, Log log) {
    this.engine = engine;
    this.gate = gate;
    this.listener = listener;
    this.log = log;
  }

  /**
   * Reads a batch of what {@code conn}'s socket reported ({@link InboundQueue}): text frames and tasks, in
   * order. The listener delivers what the batch yields to the app as one batch too.
   */
  void batch(GatewayConnection conn, List<Object> items, InboundGate gate, Log log) {
    listener.onInboundBatch(true);
    try {
      for (int i = 0, n = items.size(); i < n; i++) {
        Object item = items.get(i);
        try {
          if (item instanceof String) {
            gate.taken();
            onText(conn, (String) item);
          } else if (item instanceof SocketIoPacket) {
            gate.taken();
            onEventFrame(conn, (SocketIoPacket) item);
          } else {
            ((Runnable) item).run();
          }
        } catch (Throwable t) {
          // a bug in the actor must not lose the rest of the batch
          log.error("unexpected error on the connection's serial queue", t);
        }
      }
    } finally {
      listener.onInboundBatch(false);
    }
  }

  /** Returns what reads events ahead on a new connection's reader thread, or null. */
  EngineListener.ReadAhead readAhead() {
    return listener.readAhead();
  }

  /**
   * An event frame the socket's reader thread scanned already ({@link SocketIoCodec#fastEvent}), its payload
   * maybe read ahead too: read as {@link #onText} reads the frame, without scanning it again.
   */
  void onEventFrame(GatewayConnection conn, SocketIoPacket event) {
    if (conn != engine.current() || conn.handshake == null) {
      onText(conn, event.frame()); // an old connection's frame, or one before the handshake: as any frame
      return;
    }
    if (!actorReaderMade) {
      actorReader = listener.readAhead();
      actorReaderMade = true;
    }
    if (actorReader != null) actorReader.read(event); // no-op for an event read ahead already
    onEvent(conn, event);
  }

  void onText(GatewayConnection conn, String text) {
    if (conn != engine.current()) {
      engine.handover().onText(conn, text);
      return;
    }
    if (conn.handshake != null) {
      // the fast path of the commonest frame, an event: nothing copied or parsed but its name here
      SocketIoPacket event = SocketIoCodec.fastEvent(text);
      if (event != null) {
        onEvent(conn, event);
        return;
      }
    }
    EngineIoPacket packet;
    try {
      packet = EngineIoCodec.decode(text);
    } catch (MalformedFrameException e) {
      engine.distrust(conn, ClientError.Kind.MALFORMED_FRAME, "a malformed Engine.IO frame", e);
      return;
    }
    if (conn.handshake == null) {
      onFirstPacket(conn, packet);
      return;
    }
    switch (packet.type) {
      case PING:
        engine.send(conn, EngineIoCodec.encode(EngineIoPacket.Type.PONG, packet.data));
        engine.armWatchdog(conn);
        break;
      case MESSAGE:
        onSocketIoPacket(conn, packet.data);
        break;
      case CLOSE:
        engine.onTransportLost(conn, ConnectionReason.TRANSPORT_CLOSED,
            new TransportException("the gateway sent an Engine.IO close"));
        break;
      default:
        if (log.isDebug()) log.debug("ignored Engine.IO packet " + packet.type);
    }
  }

  void onFirstPacket(GatewayConnection conn, EngineIoPacket packet) {
    if (packet.type != EngineIoPacket.Type.OPEN) {
      engine.onTransportLost(conn, ConnectionReason.HANDSHAKE_FAILED,
          new TransportException("the gateway's first packet was " + packet.type + ", not OPEN"));
      return;
    }
    try {
      conn.handshake = EngineIoCodec.parseOpen(packet.data);
    } catch (MalformedFrameException e) {
      engine.report(ClientError.Kind.PROTOCOL_ERROR, "the gateway's handshake was refused: " + e.getMessage(), e);
      engine.onTransportLost(conn, ConnectionReason.HANDSHAKE_FAILED, new TransportException(e.getMessage(), e));
      return;
    }
    conn.inboundLimit = conn.handshake.maxPayload;
    conn.parkLimitMillis = Math.min(InboundGate.MAX_PARK_MILLIS, conn.handshake.pingTimeoutMillis / 4);
    if (log.isDebug()) log.debug("connection #" + conn.id + " opened: " + conn.handshake);
    engine.armWatchdog(conn);
    // the CONNECT carries the token: never log it
    String connect = SocketIoCodec.encode(SocketIoPacket.connect(Json.object("token", engine.tokenInActor())));
    RuntimeException failure = engine.send(conn, EngineIoCodec.message(connect));
    if (failure != null) engine.onTransportLost(conn, ConnectionReason.HANDSHAKE_FAILED, failure);
  }

  void onSocketIoPacket(GatewayConnection conn, String data) {
    SocketIoPacket packet;
    try {
      packet = SocketIoCodec.decode(data);
    } catch (MalformedFrameException e) {
      engine.distrust(conn, ClientError.Kind.MALFORMED_FRAME, "a malformed Socket.IO packet", e);
      return;
    }
    conn.binaryFramesToSkip += packet.attachments;
    if (!packet.namespace.equals(SocketIoPacket.DEFAULT_NAMESPACE)) {
      if (log.isDebug()) log.debug("ignored a packet for namespace " + packet.namespace);
      return;
    }
    switch (packet.type) {
      case CONNECT:
        conn.sendChannel = SocketSendChannel.offered(conn.id, packet.data(), conn.maxPayload());
        engine.onAccepted(conn);
        break;
      case CONNECT_ERROR:
        onRefused(conn, packet.data());
        break;
      case DISCONNECT:
        onServerDisconnect(conn);
        break;
      case EVENT:
        onEvent(conn, packet);
        break;
      case ACK:
        if (!engine.acks().complete(packet.ackId, packet.data())) {
          if (!engine.acks().wasIssued(packet.ackId)) {
            engine.distrust(conn, ClientError.Kind.UNKNOWN_ACK, "an acknowledgement of id " + packet.ackId
                + ", never emitted", null);
          } else if (log.isDebug()) {
            log.debug("ignored a late acknowledgement of id " + packet.ackId);
          }
        }
        break;
      case BINARY_EVENT:
        // the attachments that follow are counted and skipped: the stream itself is still in step
        engine.report(ClientError.Kind.UNSUPPORTED_BINARY, "dropped binary event '" + packet.eventName + "' and its "
            + packet.attachments + " attachments: binary payloads are not supported", null);
        break;
      case BINARY_ACK:
        engine.acks().fail(packet.ackId, new TransportException("binary acknowledgements are not supported"));
        engine.report(ClientError.Kind.UNSUPPORTED_BINARY, "a binary acknowledgement, not supported", null);
        break;
      default:
        throw new AssertionError(packet.type);
    }
  }

  private void onEvent(GatewayConnection conn, SocketIoPacket event) {
    if ("session-expired".equals(event.eventName)) conn.sessionExpired = true;
    engine.deliverOrHold(event);
  }

  /** The reader shed events ({@link InboundGate}): recovery restores them, whatever connection they came on. */
  void onEventsShed() {
    gate.reportTaken(); // first: an event shed from now on is reported again
    listener.onEventsShed();
  }

  void onBinary(GatewayConnection conn) {
    if (conn != engine.current()) return;
    if (conn.binaryFramesToSkip > 0) {
      conn.binaryFramesToSkip--;
    } else {
      engine.distrust(conn, ClientError.Kind.MALFORMED_FRAME, "a binary frame no packet announced", null);
    }
  }

  void onRefused(GatewayConnection conn, String data) {
    ServiceError error = ServiceError.fromConnectError(data);
    if (error == null) {
      // not a refusal the client can read: neither assume "unauthorized" nor give up; retry with backoff
      engine.report(ClientError.Kind.PROTOCOL_ERROR, "an unreadable CONNECT_ERROR: "
          + EngineIoCodec.abbreviate(data), null);
      engine.onTransportLost(conn, ConnectionReason.PROTOCOL_ERROR, new TransportException("unreadable CONNECT_ERROR"));
      return;
    }
    ApiException cause = error.toApiException();
    log.info("the gateway refused the handshake: " + error.code);
    if (cause.isTokenExpired()) {
      engine.tokenExpired(cause);
    } else {
      engine.stop(ConnectionState.DISCONNECTED, "unauthorized".equals(error.code) ? ConnectionReason.UNAUTHORIZED
          : ConnectionReason.REFUSED, cause, false);
    }
  }

  void onServerDisconnect(GatewayConnection conn) {
    if (conn.sessionExpired) {
      engine.tokenExpired(new ApiException(401, "token_expired", "the session token expired"));
    } else {
      engine.stop(ConnectionState.DISCONNECTED, ConnectionReason.SERVER_DISCONNECT,
          new TransportException("the gateway disconnected the client"), false);
    }
  }
}
