package dev.svc.chat.it;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.internal.transport.OkHttpTransport;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import dev.svc.chat.testing.Await;
import dev.svc.chat.transport.Transport;
import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.Buffer;
import okio.BufferedSink;

/**
 * Run in a child JVM by {@link UploadKillNineTest}: "alice" with the SQLite store, who sends one file message
 * (mode {@code send}) or only reconnects so that her outbox resumes it (mode {@code resume}), and who stops for
 * good at one point of the upload for the test to {@code kill -9} her there. Arguments: apiUrl token storeDir mode
 * point roomId file clientMessageId.
 *
 * <p>The points, seen from alice's HTTP client (an OkHttp interceptor) and her WebSocket (a transport wrapper):
 * {@code create-before} (the tus POST not sent), {@code create-after} (created on the service, the answer not
 * handed to the SDK), {@code mid:X} (the PATCH holding byte X sent up to X, the rest never), {@code acked:X} (that
 * PATCH answered, the answer not handed over), {@code before-send} (the upload complete, the message's frame
 * swallowed), {@code before-ack} (the message sent, the first frame naming it never handed over), {@code none}.
 * Reaching it she prints {@code = held} and parks; without one she prints {@code = synced} once her outbox is
 * empty, and closes when her standard input says {@code close}. Each tus request prints a line starting with
 * {@code +}: {@code + created <url>}, {@code + head <url> <offset>}, {@code + patch <url> <offset> <bytes>}.
 */
public final class UploadKillNineMain {
  private static final Object OUT = new Object();

  private final String point;
  private final String clientMessageId;
  /** Whether the outbox read the sends left in the store (its log says so at the connect), or took a new one. */
  private final AtomicBoolean loaded = new AtomicBoolean();

  private UploadKillNineMain(String point, String clientMessageId) {
    this.point = point;
    this.clientMessageId = clientMessageId;
  }

  public static void main(String[] args) throws Exception {
    UploadKillNineMain alice = new UploadKillNineMain(args[4], args[7]);
    OkHttpClient http = new OkHttpClient.Builder().addInterceptor(alice::intercept).build();
    ChatClient client = Svc.init(SvcOptions.builder(args[0])
        .store(SqliteChatStore.provider(new File(args[2])))
        .okHttpClient(http)
        .transport(alice.new HeldTransport(new OkHttpTransport(http)))
        .logger((level, message, error) -> {
          if (message.startsWith("the outbox loaded")) alice.loaded.set(true);
        })
        .reconnectDelay(50, 500).build());
    client.on(EventType.CLIENT_ERROR, e -> print("error " + e));
    client.connect("alice", args[1]);
    print("started");
    if ("send".equals(args[3])) {
      CompletableFuture<Message> sent = client.sendMessage(args[5],
          Collections.singletonList(MessagePart.file(FileSource.of(new File(args[6])))), args[7]);
      print("queued");
      sent.get(60, TimeUnit.SECONDS);
    } else {
      // a send loaded from the store is pending from its load at the connect until it ends
      Await.until("the outbox loaded", Duration.ofSeconds(60), alice.loaded::get, client::pendingSends);
    }
    Await.until("no send pending", Duration.ofSeconds(60), () -> client.pendingSends().isEmpty(),
        client::pendingSends);
    print("= synced");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null && !line.equals("close"); ) {
      // only "close" ends the run
    }
    client.close();
    print("closed");
    System.exit(0);
  }

  private Response intercept(Interceptor.Chain chain) throws IOException {
    Request request = chain.request();
    String method = request.method();
    String url = request.url().toString();
    if (method.equals("POST") && request.url().encodedPath().endsWith("/uploads")) {
      if (point.equals("create-before")) hold("create-before");
      Response response = chain.proceed(request);
      String location = response.header("Location");
      String upload = location == null ? null : request.url().resolve(location).toString();
      if (point.equals("create-after")) hold("create-after " + upload);
      print("+ created " + upload);
      return response;
    }
    if (method.equals("HEAD") && url.contains("/uploads/")) {
      Response response = chain.proceed(request);
      print("+ head " + url + " " + response.header("Upload-Offset"));
      return response;
    }
    if (method.equals("PATCH") && url.contains("/uploads/")) {
      long offset = Long.parseLong(request.header("Upload-Offset"));
      Buffer body = new Buffer();
      request.body().writeTo(body);
      long n = body.size();
      print("+ patch " + url + " " + offset + " " + n);
      long at = point.startsWith("mid:") || point.startsWith("acked:")
          ? Long.parseLong(point.substring(point.indexOf(':') + 1)) : -1;
      boolean covers = at >= offset && at < offset + n;
      if (covers && point.startsWith("mid:")) {
        request = request.newBuilder().patch(new HalfBody(request.body().contentType(), body, at - offset)).build();
      } else { // the SDK's body is written once: the bytes read here go instead
        request = request.newBuilder().patch(RequestBody.create(body.snapshot(), request.body().contentType()))
            .build();
      }
      Response response = chain.proceed(request);
      if (covers) hold(point + " " + response.header("Upload-Offset"));
      return response;
    }
    if (method.equals("POST") && request.url().encodedPath().endsWith("/messages")) { // a send over REST
      if (point.equals("before-send")) hold("before-send (REST)");
      Response response = chain.proceed(request);
      if (point.equals("before-ack")) hold("before-ack (REST)");
      return response;
    }
    return chain.proceed(request);
  }

  /** Prints the point and the line the test kills on, then waits for the kill. */
  private static void hold(String what) {
    print("+ at " + what);
    print("= held");
    while (true) LockSupport.park();
  }

  private static void print(String line) {
    synchronized (OUT) {
      System.out.println(line);
      System.out.flush();
    }
  }

  /** A PATCH body that writes its first {@code count} bytes, flushes them to the service, and holds. */
  private static final class HalfBody extends RequestBody {
    private final MediaType type;
    private final Buffer bytes;
    private final long count;

    HalfBody(MediaType type, Buffer bytes, long count) {
      this.type = type;
      this.bytes = bytes;
      this.count = count;
    }

    @Override
    public MediaType contentType() {
      return type;
    }

    @Override
    public long contentLength() {
      return bytes.size();
    }

    @Override
    public void writeTo(BufferedSink sink) throws IOException {
      sink.write(bytes.clone(), count);
      sink.flush();
      hold("mid:" + (count) + " bytes into the PATCH");
    }
  }

  /** The SDK's own WebSocket transport, with the {@code before-send} and {@code before-ack} points. */
  private final class HeldTransport implements Transport {
    private final Transport inner;

    HeldTransport(Transport inner) {
      this.inner = inner;
    }

    @Override
    public TransportSocket open(String url, Map<String, String> headers, TransportListener listener) {
      HeldSocket held = new HeldSocket();
      held.inner = inner.open(url, headers, new TransportListener() {
        @Override
        public void onOpen(TransportSocket s) {
          listener.onOpen(held);
        }

        @Override
        public void onText(TransportSocket s, CharSequence text) {
          if (point.equals("before-ack") && held.sent && text.toString().contains(clientMessageId)) {
            hold("before-ack");
          }
          listener.onText(held, text);
        }

        @Override
        public void onBinary(TransportSocket s) {
          listener.onBinary(held);
        }

        @Override
        public void onClosing(TransportSocket s, int code, String reason) {
          listener.onClosing(held, code, reason);
        }

        @Override
        public void onClosed(TransportSocket s, int code, String reason) {
          listener.onClosed(held, code, reason);
        }

        @Override
        public void onFailure(TransportSocket s, Throwable error, int httpStatus) {
          listener.onFailure(held, error, httpStatus);
        }
      });
      return held;
    }
  }

  /** One socket of {@link HeldTransport}: the listener is handed this one, never the inner. */
  private final class HeldSocket implements TransportSocket {
    volatile TransportSocket inner; // set by open before the inner socket's callbacks need it (they wait on it)
    volatile boolean sent;

    private TransportSocket inner() {
      while (inner == null) Thread.onSpinWait(); // a callback that ran before open returned
      return inner;
    }

    @Override
    public boolean send(String text) {
      if (text.contains(clientMessageId)) {
        if (point.equals("before-send")) {
          print("+ at before-send");
          print("= held"); // the frame is swallowed: it never leaves the process
          return true;
        }
        sent = true;
      }
      return inner().send(text);
    }

    @Override
    public long queueSize() {
      return inner().queueSize();
    }

    @Override
    public boolean close(int code, String reason) {
      return inner().close(code, reason);
    }

    @Override
    public void cancel() {
      inner().cancel();
    }

    @Override
    public boolean deferText(long delayMillis) {
      return inner().deferText(delayMillis);
    }
  }
}
