package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.svc.chat.internal.transport.OkHttpTransport;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.ForwardingSocket;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.TestTransport;
import dev.svc.chat.transport.Transport;
import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import okhttp3.OkHttpClient;

/**
 * Which thread writes a send's frame when the client runs on the SDK's own threads: the app's thread that calls
 * {@code sendMessage}, when the client's engine is idle (no hand-off to an engine thread), unless the app runs its
 * callbacks on a thread of its own, whose app (a UI's) never runs engine work.
 */
class SendThreadTest {
  private static final String OFFER = "40{\"sid\":\"s\",\"svc\":{\"sendMessage\":true}}";
  private static final int SENDS = 20;

  private FakeGateway gateway;
  private ChatClient client;
  private ExecutorService appCallbacks;
  private OkHttpClient okHttp;
  /** The threads that handed the socket a {@code send-message} frame, in order. */
  private final ConcurrentLinkedQueue<Thread> writers = new ConcurrentLinkedQueue<>();

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    gateway.onConnect = auth -> OFFER;
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) client.close();
    gateway.close();
    if (appCallbacks != null) appCallbacks.shutdownNow();
    if (okHttp != null) {
      okHttp.dispatcher().executorService().shutdown();
      okHttp.connectionPool().evictAll();
    }
  }

  @Test
  void anAppsThreadSendingToAnIdleClientWritesTheFrameItself() throws Exception {
    int here = sendOneAtATime(SvcOptions.builder(gateway.apiUrl()));
    // the engine is idle between sends but for the moments it takes each answer: most sends find it idle
    assertTrue(here > 0, "no send of " + SENDS + " was written by the thread that made it");
  }

  @Test
  void anAppWithACallbackThreadOfItsOwnNeverRunsEngineWorkOnItsThreads() throws Exception {
    appCallbacks = Executors.newSingleThreadExecutor(r -> new Thread(r, "app-ui"));
    int here = sendOneAtATime(SvcOptions.builder(gateway.apiUrl()).callbackExecutor(appCallbacks));
    assertEquals(0, here, "a send's frame was written on the app's thread");
  }

  /** Sends {@link #SENDS} messages, each after the last was answered; returns how many the calling thread wrote. */
  private int sendOneAtATime(SvcOptions.Builder options) throws Exception {
    Transport chosen = TestTransport.on(SvcOptions.builder(gateway.apiUrl())).build().transport();
    if (chosen == null) okHttp = new OkHttpClient();
    Transport delegate = chosen != null ? chosen : new OkHttpTransport(okHttp);
    client = Svc.init(options.transport(recording(delegate)).recoverMissedEvents(false)
        .logger(new RecordingLogger()).build());
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    int here = 0;
    for (long seq = 1; seq <= SENDS; seq++) {
      int before = writers.size();
      CompletableFuture<Message> sent = client.sendText("r1", "m" + seq);
      GatewaySession.Emit emit = session.nextEmit("send-message");
      assertEquals(before + 1, writers.size(), "the frame was sent before the gateway read it");
      Thread writer = null;
      for (Thread t : writers) writer = t;
      if (writer == Thread.currentThread()) here++;
      session.ack(emit, ok(id(emit.payload), seq));
      Await.value(sent);
    }
    return here;
  }

  private Transport recording(final Transport delegate) {
    return new Transport() {
      @Override
      public TransportSocket open(String url, Map<String, String> headers, TransportListener listener) {
        return new ForwardingSocket(delegate.open(url, headers, listener)) {
          @Override
          public boolean send(String text) {
            if (text.contains("\"send-message\"")) writers.add(Thread.currentThread());
            return super.send(text);
          }
        };
      }
    };
  }

  private static String id(String payload) {
    return Frames.clientMessageId(payload);
  }

  private static String ok(String clientMessageId, long seq) {
    return Frames.sendAnswer(clientMessageId, "r1", seq);
  }
}
