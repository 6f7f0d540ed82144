package dev.svc.chat.internal.realtime;

import dev.svc.chat.ConnectionReason;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.socketio.EngineIoCodec;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.ByteString;

/**
 * The first stages of the inbound pipeline, on one socket's OkHttp reader thread: the frame's size checked
 * against the gateway's {@code maxPayload}, an event frame's head scanned ({@link SocketIoCodec#fastEvent}) and
 * passed through the {@link InboundGate} (control frames never wait), its payload read ahead by the reader's own
 * {@link EventDecoder.Reader} while the actor is behind, then everything appended to the connection's
 * {@link InboundQueue}, in order: frames, and the socket's other reports (binary frames, closing, failure) as
 * tasks. It never touches the connection's state: that is the actor's.
 */
final class SocketReader extends WebSocketListener {
  private final GatewayConnection conn;
  private final InboundQueue queue;
  private final InboundGate gate;
  /** This socket's reader of payloads ahead of the actor (the same decoder; its own buffers). */
  private final EventDecoder.Reader readAhead;
  private final Runnable onShed;

  SocketReader(GatewayConnection conn, InboundQueue queue, InboundGate gate, EventDecoder.Reader readAhead,
      Runnable onShed) {
    this.conn = conn;
    this.queue = queue;
    this.gate = gate;
    this.readAhead = readAhead;
    this.onShed = onShed;
  }

  @Override
  public void onMessage(WebSocket webSocket, final String text) {
    if (conn.abandoned) return;
    final long limit = conn.inboundLimit;
    if (text.length() > limit / 3) {
      final long size = EngineIoCodec.utf8Size(text);
      if (size > limit) {
        // OkHttp has read it already; what matters now is not to queue it, and to drop the connection
        queue.task(() -> conn.onOversizedFrame(size, limit));
        return;
      }
    }
    if (text.length() > 1 && text.charAt(0) == '4' && text.charAt(1) == '2') {
      // an event: its head is scanned here, once; only events pass the gate (control frames never wait)
      SocketIoPacket event = SocketIoCodec.fastEvent(text);
      if (!gate.admit(conn, event != null && InboundGate.sheddable(event.eventName))) {
        if (gate.shed()) queue.task(onShed);
        return;
      }
      if (event != null) {
        // its payload is read here too while the actor is behind (frames wait for it), else on the actor:
        // the reading goes to whichever thread has time, so the reader and the actor share it on 2 cores
        if (gate.frames() >= InboundGate.READ_AHEAD_MARK) readAhead.readAhead(event);
        queue.event(event);
        return;
      }
    }
    queue.text(text);
  }

  @Override
  public void onMessage(WebSocket webSocket, ByteString bytes) {
    queue.task(conn::onBinary);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    webSocket.close(1000, null); // answer the close so OkHttp finishes the socket now
    lost(ConnectionReason.TRANSPORT_CLOSED, new TransportException("the gateway closed the connection (" + code + ")"));
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    conn.markGone();
    conn.releaseSlot();
    lost(ConnectionReason.TRANSPORT_CLOSED, new TransportException("the connection closed (" + code + ")"));
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable t, Response response) {
    conn.markGone();
    conn.releaseSlot();
    String why = response == null ? "the connection failed" : "the WebSocket upgrade was answered " + response.code();
    if (response != null) response.close();
    lost(ConnectionReason.TRANSPORT_ERROR, new TransportException(why + ": " + t, t));
  }

  private void lost(final ConnectionReason reason, final TransportException cause) {
    queue.task(() -> conn.lost(reason, cause));
  }
}
