package dev.svc.chat.internal.realtime;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ApiException;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.json.ServiceError;
import dev.svc.chat.internal.socketio.EngineIoCodec;
import dev.svc.chat.internal.socketio.EngineIoHandshake;
import dev.svc.chat.internal.socketio.EngineIoPacket;
import dev.svc.chat.internal.socketio.MalformedFrameException;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.transport.TransportSocket;

/**
 * One WebSocket to the gateway and the protocol that lives and dies with it, on the actor: the Engine.IO
 * handshake and heartbeat (its watchdog), the Socket.IO CONNECT and its answer, acknowledgements, and the
 * skipping of binary attachments. It reads every frame of its socket itself (the frame decoder's stages:
 * {@link EngineIoCodec}, {@link SocketIoCodec}, then the payload by the {@link EventDecoder}) and reports typed
 * results to its {@link Owner}, the engine: accepted, lost with a reason, refused, disconnected, an event. What it
 * cannot read or trust (a malformed frame, an acknowledgement never asked for, a stray binary frame) is reported
 * and the connection lost, so that recovery fills whatever it carried. A reconnect makes a new one, so a late
 * report of an old socket is recognised by the engine (it is not the current connection) and handled or ignored.
 */
final class GatewayConnection {
  /** What a connection reports to the engine; on the actor. */
  interface Owner {
    /** The gateway accepted the Socket.IO CONNECT. */
    void accepted(GatewayConnection conn);

    /** The connection is lost for {@code reason}: closed, failed, stalled, or not to be trusted any more. */
    void lost(GatewayConnection conn, ConnectionReason reason, RuntimeException cause);

    /** The gateway refused the CONNECT ({@code error} null: a refusal the client cannot read). */
    void refused(GatewayConnection conn, ServiceError error);

    /** The gateway sent a Socket.IO DISCONNECT. */
    void disconnected(GatewayConnection conn);

    /** The gateway sent an event on the default namespace, decoded. */
    void event(GatewayConnection conn, EventDecoder.Event<?> event);

    /** A problem the connection handled (a malformed frame, an unsupported binary payload). */
    void clientError(GatewayConnection conn, ClientError error);

    /** Returns the token the CONNECT carries (never logged). */
    String token();
  }

  final int id;
  private final Owner owner;
  private final Scheduler actor;
  private final PendingAcks acks;
  /** The actor's reader of event payloads, shared by the engine's connections (all on the actor). */
  private final EventDecoder.Reader decoder;
  private final Log log;
  TransportSocket webSocket;
  /** The server's OPEN packet; null until it arrived. */
  EngineIoHandshake handshake;
  /** Whether the gateway accepted our Socket.IO CONNECT. */
  boolean accepted;
  /** The offer of socket sends in the gateway's CONNECT answer, or null. */
  SocketSendChannel sendChannel;
  /** Where delivery starts on this connection, from the CONNECT answer; {@link StartPositions#NONE} until then. */
  StartPositions positions = StartPositions.NONE;
  /**
   * Whether the gateway answered on this connection (a ping, or an acknowledgement of an emit): with
   * {@link #accepted}, the proof that the connection worked, which starts the reconnect backoff over.
   */
  boolean answered;

  /**
   * Returns whether this connection proved itself (accepted, then {@link #answered}): its end starts the backoff over,
   * so a network that cuts a working connection every second does not climb to the cap. A refusal, a failed
   * handshake, or an accept dropped before any answer proves nothing: the backoff climbs (no reconnect storm).
   */
  boolean proved() {
    return accepted && answered;
  }
  /** Whether the gateway sent {@code session-expired} on this connection. */
  boolean sessionExpired;
  /** Binary frames still to swallow after a BINARY_EVENT or BINARY_ACK header. */
  private int binaryFramesToSkip;
  private Scheduler.Timer handshakeTimer;
  private Scheduler.Timer watchdog;
  /** Set by {@link #cancelTimers}: the connection is retired or handed over, its watchdog is not armed again. */
  private boolean timersOff;
  /** Set when the engine dropped this connection: its reader stops waiting and its frames are ignored. */
  volatile boolean abandoned;
  /** The largest frame accepted from the gateway: its own {@code maxPayload}, read on the reader thread. */
  volatile long inboundLimit = EngineIoCodec.DEFAULT_MAX_PAYLOAD;
  /** The longest its reader waits for slow handlers ({@link InboundGate}): a quarter of the ping timeout. */
  volatile long parkLimitMillis = InboundGate.MAX_PARK_MILLIS;
  /**
   * Whether a frame of this connection waits in the {@link InboundGate} (parked or deferred), and until when it may
   * wait; used by this connection's reader only, one frame at a time (a transport hands a deferred frame over again
   * after the previous call returned).
   */
  boolean gateWaiting;
  long gateDeadline;
  /** Whether the socket closed or failed; guarded by this connection's monitor (a latch each cost a fleet more). */
  private boolean gone;
  /** The {@link HandshakeSlots} this connection holds a slot of; null when it holds none. */
  private volatile HandshakeSlots slot;
  private static final AtomicReferenceFieldUpdater<GatewayConnection, HandshakeSlots> SLOT =
      AtomicReferenceFieldUpdater.newUpdater(GatewayConnection.class, HandshakeSlots.class, "slot");

  GatewayConnection(int id, Owner owner, Scheduler actor, PendingAcks acks, EventDecoder.Reader decoder, Log log) {
    this.id = id;
    this.owner = owner;
    this.actor = actor;
    this.acks = acks;
    this.decoder = decoder;
    this.log = log;
  }

  long maxPayload() {
    return handshake == null ? EngineIoCodec.DEFAULT_MAX_PAYLOAD : handshake.maxPayload;
  }

  // ---------------------------------------------------------------- reading (actor)

  /** A text frame of this socket, read by the strict codecs (the reader left it as text: not a plain event). */
  void onText(CharSequence text) {
    if (handshake != null) {
      // an event the reader did not scan (the read-ahead stage is off): the fast path, as from the reader
      SocketIoPacket event = SocketIoCodec.fastEvent(text);
      if (event != null) {
        onEvent(event);
        return;
      }
    }
    EngineIoPacket packet;
    try {
      packet = EngineIoCodec.decode(text);
    } catch (MalformedFrameException e) {
      distrust(ClientError.Kind.MALFORMED_FRAME, "a malformed Engine.IO frame", e);
      return;
    }
    if (handshake == null) {
      onFirstPacket(packet);
      return;
    }
    switch (packet.type) {
      case PING:
        answered = true;
        send(EngineIoCodec.encode(EngineIoPacket.Type.PONG, packet.data));
        armWatchdog();
        break;
      case MESSAGE:
        onSocketIoPacket(packet.data);
        break;
      case CLOSE:
        owner.lost(this, ConnectionReason.TRANSPORT_CLOSED, new TransportException("the gateway sent an Engine.IO close"));
        break;
      default:
        if (log.isDebug()) log.debug("ignored Engine.IO packet " + packet.type);
    }
  }

  /** An event frame the reader scanned already ({@link SocketIoCodec#fastEvent}), its payload maybe read too. */
  void onEventFrame(SocketIoPacket event) {
    if (handshake == null) {
      onText(event.frame()); // before the handshake: read as any frame (and refused: not an OPEN)
      return;
    }
    onEvent(event);
  }

  /** A binary frame: an attachment announced by a binary packet is skipped; any other is not to be trusted. */
  void onBinary() {
    if (abandoned) return;
    if (binaryFramesToSkip > 0) {
      binaryFramesToSkip--;
    } else {
      distrust(ClientError.Kind.MALFORMED_FRAME, "a binary frame no packet announced", null);
    }
  }

  private void onFirstPacket(EngineIoPacket packet) {
    if (packet.type != EngineIoPacket.Type.OPEN) {
      owner.lost(this, ConnectionReason.HANDSHAKE_FAILED,
          new TransportException("the gateway's first packet was " + packet.type + ", not OPEN"));
      return;
    }
    try {
      handshake = EngineIoCodec.parseOpen(packet.data);
    } catch (MalformedFrameException e) {
      report(ClientError.Kind.PROTOCOL_ERROR, "the gateway's handshake was refused: " + e.getMessage(), e);
      owner.lost(this, ConnectionReason.HANDSHAKE_FAILED, new TransportException(e.getMessage(), e));
      return;
    }
    inboundLimit = handshake.maxPayload;
    parkLimitMillis = Math.min(InboundGate.MAX_PARK_MILLIS, handshake.pingTimeoutMillis / 4);
    if (log.isDebug()) log.debug("connection #" + id + " opened: " + handshake);
    armWatchdog();
    // the CONNECT carries the token: never log it
    String connect = SocketIoCodec.encode(SocketIoPacket.connect(Json.object("token", owner.token())));
    RuntimeException failure = send(EngineIoCodec.message(connect));
    if (failure != null) owner.lost(this, ConnectionReason.HANDSHAKE_FAILED, failure);
  }

  private void onSocketIoPacket(String data) {
    SocketIoPacket packet;
    try {
      packet = SocketIoCodec.decode(data);
    } catch (MalformedFrameException e) {
      distrust(ClientError.Kind.MALFORMED_FRAME, "a malformed Socket.IO packet", e);
      return;
    }
    binaryFramesToSkip += packet.attachments;
    if (!packet.namespace.equals(SocketIoPacket.DEFAULT_NAMESPACE)) {
      if (log.isDebug()) log.debug("ignored a packet for namespace " + packet.namespace);
      return;
    }
    switch (packet.type) {
      case CONNECT:
        sendChannel = SocketSendChannel.offered(id, packet.data(), maxPayload());
        positions = StartPositions.parse(packet.data());
        owner.accepted(this);
        break;
      case CONNECT_ERROR:
        ServiceError error = ServiceError.fromConnectError(packet.data());
        if (error == null) {
          report(ClientError.Kind.PROTOCOL_ERROR, "an unreadable CONNECT_ERROR: " + EngineIoCodec.abbreviate(packet.data()),
              null);
        }
        owner.refused(this, error);
        break;
      case DISCONNECT:
        owner.disconnected(this);
        break;
      case EVENT:
        onEvent(packet);
        break;
      case ACK:
        if (acks.complete(packet.ackId, packet.data())) {
          answered = true;
        } else if (!acks.wasIssued(packet.ackId)) {
          distrust(ClientError.Kind.UNKNOWN_ACK, "an acknowledgement of id " + packet.ackId + ", never emitted", null);
        } else if (log.isDebug()) {
          log.debug("ignored a late acknowledgement of id " + packet.ackId);
        }
        break;
      case BINARY_EVENT:
        // the attachments that follow are counted and skipped: the stream itself is still in step
        report(ClientError.Kind.UNSUPPORTED_BINARY, "dropped binary event '" + packet.eventName + "' and its "
            + packet.attachments + " attachments: binary payloads are not supported", null);
        break;
      case BINARY_ACK:
        acks.fail(packet.ackId, new TransportException("binary acknowledgements are not supported"));
        report(ClientError.Kind.UNSUPPORTED_BINARY, "a binary acknowledgement, not supported", null);
        break;
      default:
        throw new AssertionError(packet.type);
    }
  }

  /** Decodes an event's payload (the decoder's last stage) and reports it. */
  private void onEvent(SocketIoPacket event) {
    if ("session-expired".equals(event.eventName)) sessionExpired = true;
    EventDecoder.Event<?> decoded;
    try {
      decoded = decoder.decode(event);
    } catch (JsonDataException | IllegalArgumentException | IllegalStateException e) {
      // what it carried is lost with it, unless the connection is replaced and the rooms recovered
      distrust(ClientError.Kind.MALFORMED_EVENT, "a malformed '" + event.eventName + "' event (" + e.getMessage() + ")",
          e);
      return;
    } catch (MalformedFrameException e) {
      distrust(ClientError.Kind.MALFORMED_FRAME, "a malformed Socket.IO packet", e);
      return;
    } catch (IOException e) {
      // not JSON at all (read once, here, for an event taken on the fast path): the frame was malformed
      distrust(ClientError.Kind.MALFORMED_FRAME, "a malformed Socket.IO packet (" + e.getMessage() + ")", e);
      return;
    }
    if (decoded != null) {
      owner.event(this, decoded);
    } else if (log.isDebug()) {
      log.debug("ignored gateway event '" + event.eventName + "'");
    }
  }

  /** A frame above the gateway's own {@code maxPayload} arrived (not queued): the connection is lost. */
  void onOversizedFrame(long size, long limit) {
    report(ClientError.Kind.FRAME_TOO_LARGE, "a frame of " + size + " bytes, over the gateway's maxPayload of " + limit,
        null);
    lost(ConnectionReason.FRAME_TOO_LARGE, new TransportException("a frame of " + size + " bytes exceeds maxPayload "
        + limit));
  }

  /** The socket closed or failed, or can no longer be trusted: reported to the engine. */
  void lost(ConnectionReason reason, RuntimeException cause) {
    owner.lost(this, reason, cause);
  }

  /** Reports {@code what} and loses this connection, whose stream can no longer be trusted. */
  void distrust(ClientError.Kind kind, String what, Throwable cause) {
    log.warn("the gateway sent " + what + "; replacing the connection", cause);
    report(kind, "the gateway sent " + what, cause);
    owner.lost(this, ConnectionReason.PROTOCOL_ERROR, new TransportException("the gateway sent " + what, cause));
  }

  private void report(ClientError.Kind kind, String message, Throwable cause) {
    owner.clientError(this, new ClientError(kind, message, null, cause));
  }

  // ---------------------------------------------------------------- writing and timers (actor)

  /** Sends a frame; returns the failure, or null when it was queued. */
  RuntimeException send(String frame) {
    long size = EngineIoCodec.utf8Size(frame);
    if (size > maxPayload()) {
      return new ApiException(413, "payload_too_large",
          "frame of " + size + " bytes exceeds the gateway's maxPayload of " + maxPayload());
    }
    if (!webSocket.send(frame)) return new TransportException("the connection is closing");
    return null;
  }

  /** Sends DISCONNECT when the gateway accepted us, then closes the WebSocket normally. */
  void closePolitely() {
    cancelTimers();
    if (webSocket == null) return;
    if (accepted) webSocket.send(EngineIoCodec.message(SocketIoCodec.encode(SocketIoPacket.disconnect())));
    webSocket.close(1000, null);
  }

  /** Starts the handshake's deadline: the connection is lost unless the gateway accepts it within {@code millis}. */
  void startHandshakeTimer(final long millis) {
    handshakeTimer = actor.schedule(() -> owner.lost(this, ConnectionReason.HANDSHAKE_FAILED,
        new TransportException("no handshake within " + millis + " ms")), millis);
  }

  /** The gateway accepted the connection: the deadline is cancelled and the handshake slot given back. */
  void handshakeDone() {
    if (handshakeTimer != null) handshakeTimer.cancel();
    handshakeTimer = null;
    releaseSlot();
  }

  private void armWatchdog() {
    if (timersOff) return;
    if (watchdog != null) watchdog.cancel();
    final long limit = handshake.pingIntervalMillis + handshake.pingTimeoutMillis;
    watchdog = actor.schedule(() -> owner.lost(this, ConnectionReason.PING_TIMEOUT,
        new TransportException("no ping from the gateway within " + limit + " ms")), limit);
  }

  /** Cancels the handshake timer and the watchdog for good, and gives the handshake slot back. */
  void cancelTimers() {
    timersOff = true;
    releaseSlot();
    if (handshakeTimer != null) handshakeTimer.cancel();
    if (watchdog != null) watchdog.cancel();
    handshakeTimer = null;
    watchdog = null;
  }

  // ---------------------------------------------------------------- handshake slots and the socket's end

  /** Marks that this connection holds a handshake slot. */
  void holdSlot(HandshakeSlots from) {
    slot = from;
  }

  /**
   * A handshake slot handed over to this waiting connection (on the releasing thread): opens it on the
   * actor and returns true (kept), or, if the connection was dropped meanwhile or the actor refuses, drops
   * the slot and returns false so that {@link HandshakeSlots#release} hands it on (without recursing).
   * Held before {@link #abandoned} is read, so an abandonment either sees the slot or is seen here; when an
   * abandonment already took it back (and released it itself), this returns true: the slot is accounted for.
   */
  boolean slotGranted(HandshakeSlots from, Scheduler actor, Runnable open) {
    slot = from;
    if (!abandoned && actor.execute(open)) return true;
    return !SLOT.compareAndSet(this, from, null);
  }

  /** Keeps the handshake slot if {@code wanted}, else gives it back; returns {@code wanted}. */
  boolean keepSlot(boolean wanted) {
    if (!wanted) releaseSlot();
    return wanted;
  }

  /** Gives the handshake slot back, once; any thread. */
  void releaseSlot() {
    HandshakeSlots held = SLOT.getAndSet(this, null);
    if (held != null) held.release();
  }

  /** Waits until the socket is closed or failed, up to {@code millis}; returns whether it is. */
  boolean awaitGone(long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    synchronized (this) {
      while (!gone) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  /** The socket closed or failed (its reader thread). */
  synchronized void markGone() {
    gone = true;
    notifyAll();
  }
}
