package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ChatClient#updateToken}: the token a refresher or the app supplies reaches REST and the socket through
 * the client's one owner of credentials, and never connects a disconnected client.
 */
class UpdateTokenTest {
  private static final String EXPIRED = "{\"error\":{\"code\":\"token_expired\",\"message\":\"the token expired\"}}";
  private FakeGateway gateway;
  private RecordingLogger logger;
  private ChatClient client;
  private final AtomicInteger refreshes = new AtomicInteger();
  private final CompletableFuture<String> nextToken = new CompletableFuture<>();

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    logger = new RecordingLogger();
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).logger(logger)
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
  void anUpdatedTokenMovesTheConnectionMakeBeforeBreakAndServesRest() throws Exception {
    GatewaySession first = connect();
    EventRecorder events = EventRecorder.attach(client);
    client.updateToken("new-jwt");
    assertEquals("{\"token\":\"new-jwt\"}", gateway.nextSession().awaitConnect());
    first.ack(first.nextEmit("leave-room"), "{\"ok\":true}"); // the handover's barrier on the old connection
    assertEquals(ConnectionState.CONNECTED, client.state());
    gateway.enqueueRest(json(200, "{\"rooms\":[]}"));
    Await.value(client.listRooms());
    assertEquals("Bearer new-jwt", gateway.takeRest().getHeader("Authorization"));
    assertEquals(0, refreshes.get());
    // invisible to the app, CONNECTED throughout: the first state change it sees is the disconnect's
    Await.value(client.disconnect());
    events.assertNextState(ConnectionState.DISCONNECTED, "client_disconnect");
  }

  @Test
  void anUpdatedTokenNeverConnectsADisconnectedClient() throws Exception {
    connect();
    Await.value(client.disconnect());
    client.updateToken("new-jwt");
    // refused on the actor at once, as only a disconnected client refuses: no connection was begun before it
    Await.failure(client.setTyping("r1", true), ChatStateException.class);
    gateway.assertNoSession();
    assertEquals(ConnectionState.DISCONNECTED, client.state());
    gateway.enqueueRest(json(200, "{\"rooms\":[]}"));
    Await.value(client.listRooms());
    assertEquals("Bearer new-jwt", gateway.takeRest().getHeader("Authorization"));
    // and the next connect of the same user uses what it is given
    CompletableFuture<Void> again = client.connect("alice", "new-jwt");
    assertEquals("{\"token\":\"new-jwt\"}", gateway.nextSession().awaitConnect());
    Await.value(again);
  }

  @Test
  void aRefreshAnsweredAfterDisconnectServesTheWaitingCallButConnectsNothing() throws Exception {
    connect();
    gateway.enqueueRest(json(401, EXPIRED));
    gateway.enqueueRest(json(200, "{\"rooms\":[]}"));
    CompletableFuture<?> rooms = client.listRooms();
    gateway.takeRest();
    Await.until("the refresher was asked", () -> refreshes.get() == 1);
    Await.value(client.disconnect()); // the app went to the background while the refresh was under way
    nextToken.complete("new-jwt");
    Await.value(rooms);
    assertEquals("Bearer new-jwt", gateway.takeRest().getHeader("Authorization"));
    // refused on the actor at once, as only a disconnected client refuses: no connection was begun before it
    Await.failure(client.setTyping("r1", true), ChatStateException.class);
    gateway.assertNoSession();
    assertEquals(ConnectionState.DISCONNECTED, client.state());
  }

  @Test
  void aRefreshOvertakingOneWhoseConnectionWasNotAcceptedJoinsTheRoomOnceOnTheNewestConnection() throws Exception {
    GatewaySession first = connect();
    CompletableFuture<Room> joined = client.joinRoom("r1");
    first.ack(first.nextEmit("join-room"), "{\"ok\":true,\"room\":" + Frames.roomJson("r1") + "}");
    Await.value(joined);
    gateway.onConnect = auth -> auth.contains("second-jwt") ? null : "40{\"sid\":\"s\"}"; // never accepted
    client.updateToken("second-jwt");
    GatewaySession second = gateway.nextSession();
    second.awaitConnect();
    // the next refresh comes before the gateway accepted the second connection (a loaded server; refreshes a
    // test makes on virtual time): that connection is dropped unaccepted, the first keeps delivering
    client.updateToken("third-jwt");
    GatewaySession third = gateway.nextSession();
    assertEquals("{\"token\":\"third-jwt\"}", third.awaitConnect());
    first.ack(first.nextEmit("leave-room"), "{\"ok\":true}"); // the handover's barrier, once the third is accepted
    assertTrue(third.nextEmit("join-room").payload.contains("\"r1\""), "the room is joined on the newest connection");
    assertTrue(second.awaitClosed(), "the overtaken connection was closed");
    // one rejoin for two refreshes: only an accepted connection is joined again
    assertEquals(1, logger.lines.stream().filter(l -> l.contains("joining room r1 again")).count(), logger.lines.toString());
    assertEquals(ConnectionState.CONNECTED, client.state());
  }

  @Test
  void updateTokenBeforeConnectIsAStateError() {
    assertThrows(ChatStateException.class, () -> client.updateToken("new-jwt"));
    assertThrows(IllegalArgumentException.class, () -> client.updateToken("sk_live_x"));
  }
}
