package dev.svc.chat.internal.transport;

import java.util.Map;

import dev.svc.chat.transport.Transport;
import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.ByteString;

/**
 * The default transport: OkHttp's WebSocket on a given client (the SDK derives one per base client for the
 * gateway's sockets: {@code SharedHttpClients#webSocket}). OkHttp 4 reads each socket on a dispatcher thread of
 * its own for the socket's whole life, and writes on a thread of its own per socket too (its task runner).
 *
 * <p>The upgrade request of the latest URL is kept and shared: the clients of a fleet open their sockets to
 * one URL, and OkHttp keeps the request for the socket's life.
 */
public final class OkHttpTransport implements Transport {
  private final OkHttpClient client;
  /** The request of the latest URL opened without extra headers; replaced when another URL comes. */
  private volatile Request latest;

  /** Creates a transport that opens its sockets on {@code client}. */
  public OkHttpTransport(OkHttpClient client) {
    this.client = client;
  }

  @Override
  public TransportSocket open(String url, Map<String, String> headers, TransportListener listener) {
    Request request = latest;
    if (request == null || !headers.isEmpty() || !request.url().toString().equals(url)) {
      Request.Builder builder = new Request.Builder().url(url);
      for (Map.Entry<String, String> h : headers.entrySet()) builder.header(h.getKey(), h.getValue());
      request = builder.build();
      if (headers.isEmpty()) latest = request;
    }
    Socket socket = new Socket(listener);
    socket.webSocket = client.newWebSocket(request, socket);
    return socket;
  }

  @Override
  public String toString() {
    return "OkHttpTransport";
  }

  /** One socket: OkHttp's WebSocket, and its listener adapted to the SPI's. */
  private static final class Socket extends WebSocketListener implements TransportSocket {
    private final TransportListener listener;
    /**
     * OkHttp's socket: set by {@code open} once {@code newWebSocket} returns, and by the callbacks of its life (which
     * may run on the reader thread before that), so that a listener's call on this socket never finds it unset.
     */
    volatile WebSocket webSocket;

    Socket(TransportListener listener) {
      this.listener = listener;
    }

    @Override
    public boolean send(String text) {
      return webSocket.send(text);
    }

    @Override
    public long queueSize() {
      return webSocket.queueSize();
    }

    @Override
    public boolean close(int code, String reason) {
      return webSocket.close(code, reason);
    }

    @Override
    public void cancel() {
      webSocket.cancel();
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
      this.webSocket = webSocket;
      listener.onOpen(this);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
      listener.onText(this, text);
    }

    @Override
    public void onMessage(WebSocket webSocket, ByteString bytes) {
      listener.onBinary(this);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
      this.webSocket = webSocket;
      listener.onClosing(this, code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
      this.webSocket = webSocket;
      listener.onClosed(this, code, reason);
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable t, Response response) {
      this.webSocket = webSocket;
      int status = response == null ? -1 : response.code();
      if (response != null) response.close();
      listener.onFailure(this, t, status);
    }
  }
}
