package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.GatewaySession;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A ping timeout closes the idle pooled connections to the client's own service, which may have stalled with
 * its socket, and nothing else: the app's connections on the same OkHttpClient (it used to evict its whole
 * pool, every host's).
 */
class PingTimeoutPoolTest {
  private FakeGateway gateway;
  private MockWebServer appServer;
  private OkHttpClient shared;
  private ChatClient bystander;
  private ChatClient stalled;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    appServer = new MockWebServer();
    appServer.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse().setBody("ok");
      }
    });
    appServer.start(InetAddress.getByName("127.0.0.1"), 0);
    shared = new OkHttpClient();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (stalled != null) stalled.close();
    if (bystander != null) bystander.close();
    gateway.close();
    appServer.shutdown();
    shared.dispatcher().executorService().shutdown();
    shared.connectionPool().evictAll();
  }

  private ChatClient client() {
    // no recovery reads and no reconnect within the test: the only REST calls are the test's own
    return Svc.init(SvcOptions.builder(gateway.apiUrl()).okHttpClient(shared).recoverMissedEvents(false)
        .reconnectDelay(60_000, 60_000).build());
  }

  /** Makes one REST call of {@code client}; returns the index of that request on its connection (0: a new one). */
  private int restCall(ChatClient client) throws Exception {
    CompletableFuture<?> call = client.getPresence(); // the fake answers 404: the connection stays open
    RecordedRequest request = gateway.takeRest();
    Await.until("the REST call completes", call::isDone);
    return request.getSequenceNumber();
  }

  /** The app's own call on the shared OkHttpClient to another server; returns its index on its connection. */
  private int appCall() throws Exception {
    try (Response response = shared.newCall(new Request.Builder().url(appServer.url("/app")).build()).execute()) {
      assertEquals("ok", response.body().string());
    }
    return appServer.takeRequest(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS).getSequenceNumber();
  }

  @Test
  void aPingTimeoutClosesOnlyTheIdleConnectionsToTheClientsService() throws Exception {
    assertEquals(0, appCall());
    assertTrue(appCall() > 0, "the app's pooled connection was reused");
    bystander = client();
    CompletableFuture<Void> up = bystander.connect("bob", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(up);
    assertEquals(0, restCall(bystander)); // a connection to the service, pooled
    assertTrue(restCall(bystander) > 0, "the pooled connection to the service was reused");

    gateway.openPacket = FakeGateway.openPacket(600, 400); // and the gateway never pings this socket
    stalled = client();
    EventRecorder events = EventRecorder.attach(stalled);
    up = stalled.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(up);
    assertEquals(ConnectionReason.PING_TIMEOUT, events.awaitState(ConnectionState.RECONNECTING).reason());

    assertTrue(appCall() > 0, "a chat client's ping timeout closed the app's pooled connection to another server");
    assertEquals(0, restCall(stalled), "after the ping timeout a pooled connection to the service, which may have"
        + " stalled, was reused");
  }
}
