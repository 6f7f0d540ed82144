package dev.svc.chat.bench.ingest;

import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.Moshi;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.transport.jdk.JdkTransport;
import io.socket.client.IO;
import io.socket.client.Socket;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.Buffer;

/** One consumer of the feed: connects, counts {@code events} events, and returns the events per second. */
abstract class IngestConsumer {
  private static final long TIMEOUT_SECONDS = 60;

  abstract double run(int port, int events) throws Exception;

  /** Counts events; the rate is taken from the first event to the last, on the thread that counts. */
  static final class Counter {
    private final int expected;
    private final CountDownLatch done = new CountDownLatch(1);
    private int count;
    private long first;
    private long last;

    Counter(int expected) {
      this.expected = expected;
    }

    /** Called once per event, always on one thread at a time (each consumer's delivery is serial). */
    void hit() {
      long now = System.nanoTime();
      if (count++ == 0) first = now;
      if (count == expected) {
        last = now;
        done.countDown();
      }
    }

    double await() throws InterruptedException {
      if (!done.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("only " + count + " of " + expected + " events within " + TIMEOUT_SECONDS + " s");
      }
      return (expected - 1) * 1e9 / (last - first);
    }
  }

  /**
   * Our client: {@code on(NEW_MESSAGE)}, recovery off (the feed serves no REST); its realtime socket on OkHttp
   * (the default) or, with {@code jdk}, on the JDK transport.
   */
  static final class Ours extends IngestConsumer {
    private final boolean jdk;

    Ours() {
      this(false);
    }

    Ours(boolean jdk) {
      this.jdk = jdk;
    }

    @Override
    double run(int port, int events) throws Exception {
      SvcOptions.Builder options = SvcOptions.builder("http://127.0.0.1:" + port + "/v1").recoverMissedEvents(false);
      if (jdk) options.transport(JdkTransport.shared());
      ChatClient client = Svc.init(options.build());
      try {
        Counter counter = new Counter(events);
        client.on(EventType.NEW_MESSAGE, m -> counter.hit());
        client.connect("bench-user", "bench-token").get(10, TimeUnit.SECONDS);
        return counter.await();
      } finally {
        client.close();
      }
    }
  }

  /** A raw OkHttp WebSocket: does the Engine.IO and Socket.IO handshake, then only counts event frames. */
  static class RawOkHttp extends IngestConsumer {
    private static final OkHttpClient HTTP = new OkHttpClient();

    /** Handles one event frame ({@code 42[...]}); the raw consumer does nothing with it. */
    void onEventFrame(String text) throws IOException {
    }

    @Override
    double run(int port, int events) throws Exception {
      Counter counter = new Counter(events);
      Request request = new Request.Builder()
          .url("ws://127.0.0.1:" + port + "/socket.io/?EIO=4&transport=websocket").build();
      WebSocket ws = HTTP.newWebSocket(request, new WebSocketListener() {
        @Override
        public void onMessage(WebSocket webSocket, String text) {
          if (text.startsWith("42")) {
            try {
              onEventFrame(text);
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
            counter.hit();
          } else if (text.startsWith("0")) {
            webSocket.send("40{\"token\":\"bench-token\"}");
          } else if (text.equals("2")) {
            webSocket.send("3");
          }
        }
      });
      try {
        return counter.await();
      } finally {
        ws.close(1000, null);
      }
    }
  }

  /** OkHttp + Moshi: each frame decoded into a plain class by Moshi's reflective adapter. */
  static final class OkHttpMoshi extends RawOkHttp {
    /** The message as a plain class. */
    static final class Msg {
      String id;
      String roomId;
      long seq;
      long rev;
      String senderId;
      List<Part> parts;
      String clientMessageId;
      String createdAt;
      Map<String, List<String>> reactions;
    }

    /** One part. */
    static final class Part {
      String type;
      String text;
    }

    private static final JsonAdapter<Msg> ADAPTER = new Moshi.Builder().build().adapter(Msg.class);
    volatile Msg lastDecoded; // keeps the decode from being optimised away

    @Override
    void onEventFrame(String text) throws IOException {
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(text, 2, text.length()));
      reader.beginArray();
      String name = reader.nextString();
      if (name.equals("new-message")) lastDecoded = ADAPTER.fromJson(reader);
    }
  }

  /** socket.io-client-java 2.1.2, websocket transport only. */
  static final class SocketIoJava extends IngestConsumer {
    @Override
    double run(int port, int events) throws Exception {
      Counter counter = new Counter(events);
      IO.Options options = IO.Options.builder().setTransports(new String[] {"websocket"})
          .setReconnection(false).setAuth(Collections.singletonMap("token", "bench-token")).build();
      Socket socket = IO.socket(URI.create("http://127.0.0.1:" + port), options);
      socket.on("new-message", args -> counter.hit());
      socket.connect();
      try {
        return counter.await();
      } finally {
        socket.close();
      }
    }
  }
}
