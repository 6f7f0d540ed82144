package dev.svc.chat.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A server-side (API-key) gateway connection made with the JDK's WebSocket: the SDK refuses API keys by
 * design, so tests that need "nobody's" connection make one by hand. It answers pings and records frames.
 */
final class ApiKeySocket implements AutoCloseable {
  private final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
  private final WebSocket socket;

  private ApiKeySocket(String socketUrl) throws Exception {
    socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
        .buildAsync(URI.create(socketUrl), new Listener()).get(30, TimeUnit.SECONDS);
  }

  /** Opens a connection and completes the Socket.IO handshake with {@code {"apiKey": ...}}. */
  static ApiKeySocket connect(String socketUrl, String apiKey) throws Exception {
    ApiKeySocket s = new ApiKeySocket(socketUrl);
    String open = s.next();
    if (!open.startsWith("0{")) throw new AssertionError("expected the open packet, got " + open);
    s.socket.sendText("40{\"apiKey\":\"" + apiKey + "\"}", true).get(30, TimeUnit.SECONDS);
    String answer = s.next();
    if (!answer.startsWith("40{\"sid\"")) throw new AssertionError("expected CONNECT ok, got " + answer);
    return s;
  }

  /** Emits {@code event} with ack id 1 and returns the ack frame. */
  String emitWithAck(String event, String payloadJson) throws Exception {
    socket.sendText("421[\"" + event + "\"," + payloadJson + "]", true).get(30, TimeUnit.SECONDS);
    while (true) {
      String frame = next();
      if (frame.startsWith("431[")) return frame.substring(3);
    }
  }

  /** Returns the next frame other than a ping, failing after 10 s. */
  String next() throws InterruptedException {
    String frame = frames.poll(30, TimeUnit.SECONDS);
    if (frame == null) throw new AssertionError("no frame within 10 s");
    return frame;
  }

  /** Returns the next event frame whose name is {@code name}, skipping others. */
  String nextEvent(String name) throws InterruptedException {
    while (true) {
      String frame = next();
      if (frame.startsWith("42[\"" + name + "\"")) return frame;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
    } catch (Exception alreadyClosed) {
      // the server may have closed first
    } finally {
      socket.abort();
    }
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String frame = partial.toString();
        partial.setLength(0);
        if (frame.equals("2")) {
          ws.sendText("3", true);
        } else {
          frames.add(frame);
        }
      }
      ws.request(1);
      return null;
    }
  }
}
