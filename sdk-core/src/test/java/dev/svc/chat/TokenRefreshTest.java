package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@link TokenRefresher}: one refresh and one retry on token_expired, shared by REST and the socket. */
class TokenRefreshTest {
  private static final String EXPIRED =
      "{\"error\":{\"code\":\"token_expired\",\"message\":\"the token expired\"}}";

  private FakeGateway gateway;
  private RecordingLogger logger;
  private ChatClient client;
  private final AtomicInteger refreshes = new AtomicInteger();
  private volatile CompletableFuture<String> nextToken = new CompletableFuture<>();

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    logger = new RecordingLogger();
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).logger(logger).reconnectDelay(10, 100)
        .tokenRefresher(() -> {
          refreshes.incrementAndGet();
          return nextToken;
        }).build());
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
    gateway.close();
    assertFalse(logger.mentions("old-jwt") || logger.mentions("new-jwt"), "a token was logged");
  }

  private GatewaySession connect() throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "old-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    return session;
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json").setBody(body);
  }

  @Test
  void restTokenExpiredRefreshesOnceAndRetriesOnceWithTheNewToken() throws Exception {
    GatewaySession first = connect();
    gateway.enqueueRest(json(401, EXPIRED));
    gateway.enqueueRest(json(200, "{\"rooms\":[" + Frames.roomJson("r1") + "]}"));
    CompletableFuture<List<Room>> rooms = client.listRooms();
    assertEquals("Bearer old-jwt", gateway.takeRest().getHeader("Authorization"));
    nextToken.complete("new-jwt");
    assertEquals("r1", Await.value(rooms).get(0).id());
    assertEquals("Bearer new-jwt", gateway.takeRest().getHeader("Authorization"));
    assertEquals(1, refreshes.get());
    // the socket moves to the new token as well (make before break)
    assertEquals("{\"token\":\"new-jwt\"}", gateway.nextSession().awaitConnect());
    first.ack(first.nextEmit("leave-room"), "{\"ok\":true}");
  }

  @Test
  void aSendWhoseTokenCannotBeRefreshedYetIsRetriedNotFailed() throws Exception {
    connect();
    AtomicInteger stored = new AtomicInteger();
    gateway.rest = request -> {
      if (!"Bearer new-jwt".equals(request.getHeader("Authorization"))) return json(401, EXPIRED);
      stored.incrementAndGet();
      return json(201, Frames.messageJson("m1", "r1", 1, "hello"));
    };
    nextToken.completeExceptionally(new java.io.IOException("the tenant's backend is restarting"));
    CompletableFuture<Message> sent = client.sendText("r1", "hello");
    Await.until("the send's first attempt ended", () -> sent.isDone() || !client.pendingSends().isEmpty()
        && client.pendingSends().get(0).lastError() != null);
    assertFalse(sent.isCompletedExceptionally(), "the send was failed: " + sent);
    // the refresher answers again: the send goes out with the new token and the same id, once
    nextToken = CompletableFuture.completedFuture("new-jwt");
    assertEquals("hello", Await.value(sent).text());
    assertEquals(1, stored.get());
  }

  @Test
  void aSecondTokenExpiredFailsTheCallWithoutAnotherRefresh() throws Exception {
    connect();
    nextToken.complete("new-jwt");
    gateway.enqueueRest(json(401, EXPIRED));
    gateway.enqueueRest(json(401, EXPIRED));
    ApiException e = Await.failure(client.listRooms(), ApiException.class);
    assertEquals("token_expired", e.code());
    assertEquals(1, refreshes.get());
    gateway.takeRest();
    RecordedRequest retry = gateway.takeRest();
    assertEquals("Bearer new-jwt", retry.getHeader("Authorization"));
  }

  @Test
  void unauthorizedNeverRefreshes() throws Exception {
    connect();
    gateway.enqueueRest(json(401, "{\"error\":{\"code\":\"unauthorized\",\"message\":\"bad token\"}}"));
    ApiException e = Await.failure(client.listRooms(), ApiException.class);
    assertEquals("unauthorized", e.code());
    assertEquals(0, refreshes.get());
  }

  @Test
  void concurrentRestExpiriesAndASessionExpiredShareOneRefresh() throws Exception {
    GatewaySession first = connect();
    EventRecorder events = EventRecorder.attach(client);
    gateway.enqueueRest(json(401, EXPIRED));
    gateway.enqueueRest(json(401, EXPIRED));
    CompletableFuture<List<Room>> a = client.listRooms();
    CompletableFuture<List<Room>> b = client.listRooms();
    gateway.takeRest();
    gateway.takeRest();
    first.send("42[\"session-expired\",{\"code\":\"token_expired\"}]");
    first.send("41");
    // with a refresher the client waits for the new token, reconnecting: it never shows DISCONNECTED
    ConnectionStateChange expired = events.awaitState(ConnectionState.RECONNECTING);
    assertEquals(ConnectionReason.TOKEN_EXPIRED, expired.reason());
    gateway.enqueueRest(json(200, "{\"rooms\":[]}"));
    gateway.enqueueRest(json(200, "{\"rooms\":[]}"));
    nextToken.complete("new-jwt");
    Await.value(a);
    Await.value(b);
    assertEquals("{\"token\":\"new-jwt\"}", gateway.nextSession().awaitConnect());
    events.awaitState(ConnectionState.CONNECTED);
    assertEquals(1, refreshes.get());
  }

  @Test
  void aConnectErrorTokenExpiredRefreshesAndReconnectsOnlyOnce() throws Exception {
    EventRecorder events = EventRecorder.attach(client);
    nextToken.complete("new-jwt");
    // every handshake is refused as expired, the fresh token's too (clocks that disagree)
    gateway.onConnect = auth -> "44{\"message\":\"token_expired\",\"data\":{\"code\":\"token_expired\"}}";
    CompletableFuture<Void> connected = client.connect("alice", "old-jwt");
    assertEquals("{\"token\":\"old-jwt\"}", gateway.nextSession().awaitConnect());
    assertEquals(ConnectionReason.TOKEN_EXPIRED, events.awaitState(ConnectionState.RECONNECTING).reason());
    assertEquals("{\"token\":\"new-jwt\"}", gateway.nextSession().awaitConnect());
    // the fresh token is refused as expired too: one refresh only, then DISCONNECTED
    ConnectionStateChange end = events.awaitState(ConnectionState.DISCONNECTED);
    assertEquals(ConnectionReason.TOKEN_EXPIRED, end.reason());
    assertEquals("token_expired", Await.failure(connected, ApiException.class).code());
    // no second refresh, no loop:
    // refused on the actor at once, as only a disconnected client refuses: no connection was begun before it
    Await.failure(client.setTyping("r1", true), ChatStateException.class);
    gateway.assertNoSession();
    assertEquals(1, refreshes.get());
  }

  @Test
  void aFreshTokenThatAgedThroughAnOutageIsRefreshedAgainWhenTheGatewayRefusesIt() throws Exception {
    // the fresh token's first handshake is cut (the service is down); by the time the gateway answers again it
    // has expired for real: that is no clock disagreement, so the client refreshes once more instead of giving up
    AtomicInteger newJwtHandshakes = new AtomicInteger();
    gateway.onConnect = auth -> {
      if (auth.contains("new-jwt\"")) {
        return newJwtHandshakes.incrementAndGet() == 1 ? null
            : "44{\"message\":\"token_expired\",\"data\":{\"code\":\"token_expired\"}}";
      }
      return "40{\"sid\":\"sio-" + auth.length() + "\"}";
    };
    GatewaySession first = connect();
    EventRecorder events = EventRecorder.attach(client);
    nextToken.complete("new-jwt");
    first.send("42[\"session-expired\",{\"code\":\"token_expired\"}]");
    first.send("41");
    GatewaySession unanswered = gateway.nextSession();
    assertEquals("{\"token\":\"new-jwt\"}", unanswered.awaitConnect());
    nextToken = CompletableFuture.completedFuture("newer-jwt");
    unanswered.cancel(); // the outage: the handshake is never answered
    assertEquals("{\"token\":\"new-jwt\"}", gateway.nextSession().awaitConnect()); // refused: it expired meanwhile
    assertEquals("{\"token\":\"newer-jwt\"}", gateway.nextSession().awaitConnect());
    events.awaitState(ConnectionState.CONNECTED);
    assertEquals(2, refreshes.get());
  }
}
