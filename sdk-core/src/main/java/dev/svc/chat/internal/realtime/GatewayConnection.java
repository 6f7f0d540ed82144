package dev.svc.chat.internal.realtime;

import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ConnectionReason;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.socketio.EngineIoCodec;
import dev.svc.chat.internal.socketio.EngineIoHandshake;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.ByteString;

/**
 * One WebSocket to the gateway and the state that lives and dies with it. A reconnect makes a new one, so
 * a late callback of an old socket is recognised (it is no longer the engine's current connection) and
 * ignored. Its fields are confined to the actor thread; its listener only posts to the actor.
 */
final class GatewayConnection {
  final int id;
  WebSocket webSocket;
  /** The server's OPEN packet; null until it arrived. */
  EngineIoHandshake handshake;
  /** Whether the gateway accepted our Socket.IO CONNECT. */
  boolean accepted;
  /** The offer of socket sends in the gateway's CONNECT answer, or null. */
  SocketSendChannel sendChannel;
  /** Whether the gateway sent {@code session-expired} on this connection. */
  boolean sessionExpired;
  /** Binary frames still to swallow after a BINARY_EVENT or BINARY_ACK header. */
  int binaryFramesToSkip;
  Scheduler.Timer handshakeTimer;
  Scheduler.Timer watchdog;
  /** Set when the engine dropped this connection: its reader stops waiting and its frames are ignored. */
  volatile boolean abandoned;
  /** The largest frame accepted from the gateway: its own {@code maxPayload}, read on the reader thread. */
  volatile long inboundLimit = EngineIoCodec.DEFAULT_MAX_PAYLOAD;
  /** The longest its reader waits for slow handlers ({@link InboundGate}): a quarter of the ping timeout. */
  volatile long parkLimitMillis = InboundGate.MAX_PARK_MILLIS;
  /** Whether the socket closed or failed; guarded by this connection's monitor (a latch each cost a fleet more). */
  private boolean gone;
  /** The {@link HandshakeSlots} this connection holds a slot of; null when it holds none. */
  private volatile HandshakeSlots slot;
  private static final AtomicReferenceFieldUpdater<GatewayConnection, HandshakeSlots> SLOT =
      AtomicReferenceFieldUpdater.newUpdater(GatewayConnection.class, HandshakeSlots.class, "slot");

  GatewayConnection(int id) {
    this.id = id;
  }

  long maxPayload() {
    return handshake == null ? EngineIoCodec.DEFAULT_MAX_PAYLOAD : handshake.maxPayload;
  }

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

  void cancelTimers() {
    releaseSlot();
    if (handshakeTimer != null) handshakeTimer.cancel();
    if (watchdog != null) watchdog.cancel();
    handshakeTimer = null;
    watchdog = null;
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

  private synchronized void markGone() {
    gone = true;
    notifyAll();
  }

  /**
   * Returns the OkHttp listener that forwards this connection's socket events to the engine's actor, through
   * one {@link InboundQueue}, in batches.
   */
  WebSocketListener listener(final InboundPackets inbound, final RealtimeEngine engine, final Scheduler actor,
      final InboundGate gate, Log log) {
    final GatewayConnection conn = this;
    final InboundQueue queue = new InboundQueue(conn, inbound, actor, gate, log);
    final EngineListener.ReadAhead readAhead = inbound.readAhead();
    return new WebSocketListener() {
      @Override
      public void onMessage(WebSocket webSocket, final String text) {
        if (conn.abandoned) return;
        long limit = conn.inboundLimit;
        if (text.length() > limit / 3) {
          final long size = EngineIoCodec.utf8Size(text);
          if (size > limit) {
            // OkHttp has read it already; what matters now is not to queue it, and to drop the connection
            queue.task(() -> engine.onOversizedFrame(conn, size, limit));
            return;
          }
        }
        if (text.length() > 1 && text.charAt(0) == '4' && text.charAt(1) == '2') {
          // an event: its head is scanned here, once; only events pass the gate (control frames never wait)
          SocketIoPacket event = SocketIoCodec.fastEvent(text);
          if (!gate.admit(conn, event != null && InboundGate.sheddable(event.eventName))) {
            if (gate.shed()) queue.task(() -> inbound.onEventsShed());
            return;
          }
          if (event != null) {
            // its payload is read here too while the actor is behind (frames wait for it), else on the actor:
            // the reading goes to whichever thread has time, so the reader and the actor share it on 2 cores
            if (readAhead != null && gate.frames() >= InboundGate.READ_AHEAD_MARK) readAhead.read(event);
            queue.event(event);
            return;
          }
        }
        queue.text(text);
      }

      @Override
      public void onMessage(WebSocket webSocket, ByteString bytes) {
        queue.task(() -> inbound.onBinary(conn));
      }

      @Override
      public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null); // answer the close so OkHttp finishes the socket now
        lost(ConnectionReason.TRANSPORT_CLOSED, new TransportException("the gateway closed the connection (" + code + ")"));
      }

      @Override
      public void onClosed(WebSocket webSocket, int code, String reason) {
        markGone();
        releaseSlot();
        lost(ConnectionReason.TRANSPORT_CLOSED, new TransportException("the connection closed (" + code + ")"));
      }

      @Override
      public void onFailure(WebSocket webSocket, Throwable t, Response response) {
        markGone();
        releaseSlot();
        String why = response == null ? "the connection failed"
            : "the WebSocket upgrade was answered " + response.code();
        if (response != null) response.close();
        lost(ConnectionReason.TRANSPORT_ERROR, new TransportException(why + ": " + t, t));
      }

      private void lost(final ConnectionReason reason, final TransportException cause) {
        queue.task(() -> engine.onTransportLost(conn, reason, cause));
      }
    };
  }
}
