package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.GatewaySession;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A fleet on one OkHttpClient: one client's ping timeout makes its own next REST call open a new connection,
 * and leaves the pooled connections the other clients use alone (it used to evict the whole pool).
 */
class PingTimeoutPoolTest {
  private FakeGateway gateway;
  private OkHttpClient shared;
  private ChatClient bystander;
  private ChatClient stalled;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    shared = new OkHttpClient();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (stalled != null) stalled.close();
    if (bystander != null) bystander.close();
    gateway.close();
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

  @Test
  void aPingTimeoutAvoidsOnlyTheStalledClientsPooledConnections() throws Exception {
    bystander = client();
    CompletableFuture<Void> up = bystander.connect("bob", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(up);
    assertEquals(0, restCall(bystander)); // opens the connection that stays in the shared pool
    assertTrue(restCall(bystander) > 0, "the pooled connection was reused");

    gateway.openPacket = FakeGateway.openPacket(600, 400); // and the gateway never pings this socket
    stalled = client();
    EventRecorder events = EventRecorder.attach(stalled);
    up = stalled.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(up);
    assertEquals(ConnectionReason.PING_TIMEOUT, events.awaitState(ConnectionState.RECONNECTING).reason());

    assertTrue(restCall(bystander) > 0, "another client's ping timeout closed the bystander's pooled connection");
    assertEquals(0, restCall(stalled), "the stalled client's first call after its ping timeout reused a pooled"
        + " connection");
    assertTrue(restCall(stalled) > 0, "once a new connection got through, the pool serves the client again");
  }
}
