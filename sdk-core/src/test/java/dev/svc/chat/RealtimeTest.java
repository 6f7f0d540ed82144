package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.TestTransport;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The realtime connection against a fake gateway speaking the official server's frames. The client's timers
 * (heartbeat watchdog, backoff, acknowledgement timeouts) run on virtual time: they fire only when a test moves
 * it, so a loaded machine never fires one early, and "it does not reconnect" is a fact about the timers set. The
 * module sdk-transport-jdk runs this class again on the JDK transport ({@link TestTransport}).
 */
class RealtimeTest {
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private FakeGateway gateway;
  private RecordingLogger logger;
  private ChatClient client;
  private EventRecorder events;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    logger = new RecordingLogger();
    client = Svc.init(TestTransport.on(SvcOptions.builder(gateway.apiUrl())).recoverMissedEvents(false).logger(logger).reconnectDelay(10, 100)
        .ackTimeoutMillis(2_000).scheduler(time).build());
    events = EventRecorder.attach(client);
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
    gateway.close();
    assertFalse(logger.mentions("good-jwt"), "a token was logged");
    assertFalse(logger.mentions("new-jwt"), "a token was logged");
  }

  private GatewaySession connect() throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    assertEquals("{\"token\":\"good-jwt\"}", session.awaitConnect());
    Await.value(connected);
    events.assertNextState(ConnectionState.CONNECTING, "connect");
    events.assertNextState(ConnectionState.CONNECTED, "connected");
    return session;
  }

  /**
   * Runs out the backoff that {@code lost} announced and returns the new socket. The reconnect's timer is the
   * only one set while reconnecting (the lost connection's watchdog and acknowledgements are cancelled first),
   * so virtual time moves only once the actor set it.
   */
  private GatewaySession reconnectAfter(ConnectionStateChange lost) throws Exception {
    assertEquals(ConnectionState.RECONNECTING, lost.current(), lost.toString());
    Await.until("the reconnect's timer is set", () -> time.pending() == 1);
    time.advance(lost.retryDelayMillis());
    return gateway.nextSession();
  }

  /**
   * Asserts the client does not reconnect by itself: once its actor answered an emit (refused at once while
   * disconnected), no timer is left that could, and an hour of virtual time opens no socket.
   */
  private void assertNoReconnect() throws Exception {
    Await.failure(client.setTyping("r1", true), ChatStateException.class);
    assertEquals(0, time.pending(), "a timer is still set: a reconnect would follow");
    time.advance(3_600_000);
    gateway.assertNoSession();
  }

  private Room join(GatewaySession session, String roomId) throws Exception {
    CompletableFuture<Room> joined = client.joinRoom(roomId);
    GatewaySession.Emit emit = session.nextEmit("join-room");
    assertEquals("{\"roomId\":\"" + roomId + "\"}", emit.payload);
    session.ack(emit, "{\"ok\":true,\"room\":" + Frames.roomJson(roomId) + "}");
    return Await.value(joined);
  }

  @Test
  void connectsWithTheTokenInTheConnectPacket() throws Exception {
    GatewaySession session = connect();
    assertEquals("/socket.io/?EIO=4&transport=websocket", session.upgradeRequest.getPath());
    assertEquals(ConnectionState.CONNECTED, client.state());
    assertEquals("alice", client.userId());
  }

  @Test
  void connectErrorTokenExpiredFailsWithApiExceptionAndDoesNotReconnect() throws Exception {
    gateway.onConnect = auth -> "44{\"message\":\"token_expired\",\"data\":{\"code\":\"token_expired\"}}";
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    gateway.nextSession();
    ApiException e = Await.failure(connected, ApiException.class);
    assertEquals(401, e.status());
    assertEquals("token_expired", e.code());
    assertTrue(e.isTokenExpired());
    events.assertNextState(ConnectionState.CONNECTING);
    ConnectionStateChange c = events.assertNextState(ConnectionState.DISCONNECTED, "token_expired");
    assertTrue(c.cause() instanceof ApiException);
    assertNoReconnect();
    assertEquals(ConnectionState.DISCONNECTED, client.state());
  }

  @Test
  void connectErrorWithOnlyAMessageIsUnauthorized() throws Exception {
    gateway.onConnect = auth -> "44{\"message\":\"unauthorized\"}";
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    gateway.nextSession();
    ApiException e = Await.failure(connected, ApiException.class);
    assertEquals(401, e.status());
    assertEquals("unauthorized", e.code());
    assertFalse(e.isTokenExpired());
    assertNoReconnect();
  }

  @Test
  void refusesAnApiKeyAndBadUserIds() throws Exception {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client.connect("alice", "sk_live_abc"));
    assertTrue(e.getMessage().contains("API keys never belong in client code"), e.getMessage());
    assertFalse(e.getMessage().contains("sk_live_abc"));
    assertThrows(IllegalArgumentException.class, () -> client.connect("", "t"));
    assertThrows(IllegalArgumentException.class, () -> client.connect("al ice", "t"));
    assertThrows(IllegalArgumentException.class, () -> client.connect(new String(new char[129]).replace('\0', 'a'), "t"));
    client.connect("a-Z_0.9@x:y", "t"); // every allowed character
    gateway.nextSession();
  }

  @Test
  void unreachableGatewayFailsConnectAndKeepsRetrying() throws Exception {
    FakeGateway gone = new FakeGateway();
    String url = gone.apiUrl();
    gone.close();
    try (ChatClient offline = Svc.init(TestTransport.on(SvcOptions.builder(url)).recoverMissedEvents(false).reconnectDelay(10, 100).build())) {
      EventRecorder offlineEvents = EventRecorder.attach(offline);
      Await.failure(offline.connect("alice", "good-jwt"), TransportException.class);
      offlineEvents.assertNextState(ConnectionState.CONNECTING);
      offlineEvents.assertNextState(ConnectionState.RECONNECTING, "transport_error");
      assertEquals(ConnectionState.RECONNECTING, offline.state());
    }
  }

  @Test
  void answersPingWithPongAndNeverPings() throws Exception {
    GatewaySession session = connect();
    session.send("2");
    assertEquals("3", session.nextFrame());
    session.send("2");
    assertEquals("3", session.nextFrame());
  }

  @Test
  void aRejoinRefusedAfterAReconnectIsReportedToTheApp() throws Exception {
    java.util.concurrent.BlockingQueue<ClientError> errors = new java.util.concurrent.LinkedBlockingQueue<>();
    client.on(EventType.CLIENT_ERROR, errors::add);
    GatewaySession first = connect();
    join(first, "r1");
    first.close();
    GatewaySession second = reconnectAfter(events.assertNextState(ConnectionState.RECONNECTING));
    second.awaitConnect();
    events.assertNextState(ConnectionState.CONNECTED);
    GatewaySession.Emit rejoin = second.nextEmit("join-room");
    second.ack(rejoin, "{\"ok\":false,\"error\":{\"code\":\"forbidden\",\"message\":\"not a member\"}}");
    ClientError e = errors.poll(FakeGateway.TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
    assertNotNull(e, "the refused re-join was not reported");
    assertEquals(ClientError.Kind.REJOIN_REFUSED, e.kind());
    assertEquals("r1", e.roomId());
    second.close(); // the next reconnect does not join the refused room again
    second = reconnectAfter(events.assertNextState(ConnectionState.RECONNECTING));
    second.awaitConnect();
    events.assertNextState(ConnectionState.CONNECTED);
    second.send("2"); // a join would have been emitted on accept, before this ping's answer
    assertEquals("3", second.nextFrame());
  }

  @Test
  void watchdogReconnectsAndRejoinsTheJoinedRoom() throws Exception {
    gateway.openPacket = FakeGateway.openPacket(600, 400); // and the gateway never pings
    GatewaySession first = connect();
    join(first, "r1");
    time.advance(1_000); // no ping within 600 + 400 ms
    ConnectionStateChange lost = events.assertNextState(ConnectionState.RECONNECTING, "ping_timeout");
    assertTrue(lost.cause() instanceof TransportException);
    gateway.openPacket = FakeGateway.openPacket(25_000, 20_000);
    GatewaySession second = reconnectAfter(lost);
    assertEquals("{\"token\":\"good-jwt\"}", second.awaitConnect());
    events.assertNextState(ConnectionState.CONNECTED);
    GatewaySession.Emit rejoin = second.nextEmit("join-room");
    assertEquals("{\"roomId\":\"r1\"}", rejoin.payload);
  }

  @Test
  void pingsKeepTheWatchdogQuiet() throws Exception {
    gateway.openPacket = FakeGateway.openPacket(300, 300);
    GatewaySession session = connect();
    // the OPEN's watchdog falls due 500 ms from here, never 600: each wait below is for its own ping's watchdog
    time.advance(100);
    for (int i = 0; i < 8; i++) { // 8 x 500 ms > the 600 ms limit
      session.send("2");
      assertEquals("3", session.nextFrame());
      // the watchdog is armed again just after the PONG is sent, on the actor
      Await.until("the watchdog is armed again", () -> time.nextDueMillis() == time.nowMillis() + 600);
      time.advance(500);
    }
    assertEquals(ConnectionState.CONNECTED, client.state());
    time.advance(100); // 600 ms after the last ping: the first state change of the test is the watchdog's
    events.assertNextState(ConnectionState.RECONNECTING, "ping_timeout");
  }

  @Test
  void serverCloseReconnects() throws Exception {
    GatewaySession first = connect();
    first.close();
    reconnectAfter(events.assertNextState(ConnectionState.RECONNECTING, "transport_closed")).awaitConnect();
    events.assertNextState(ConnectionState.CONNECTED);
  }

  @Test
  void reconnectNowSkipsTheBackoffDelay() throws Exception {
    try (ChatClient slow = Svc.init(TestTransport.on(SvcOptions.builder(gateway.apiUrl())).recoverMissedEvents(false).reconnectDelay(60_000, 60_000)
        .scheduler(time).build())) {
      EventRecorder slowEvents = EventRecorder.attach(slow);
      slow.connect("alice", "good-jwt");
      GatewaySession first = gateway.nextSession();
      first.awaitConnect();
      slowEvents.assertNextState(ConnectionState.CONNECTING);
      slowEvents.assertNextState(ConnectionState.CONNECTED);
      first.close();
      assertTrue(slowEvents.assertNextState(ConnectionState.RECONNECTING).retryDelayMillis() > 0);
      Await.until("the reconnect's timer is set", () -> time.pending() == 1);
      slow.reconnectNow(); // virtual time stands still: only this can start the attempt
      GatewaySession second = gateway.nextSession();
      second.awaitConnect();
      slowEvents.assertNextState(ConnectionState.CONNECTED);
      slow.reconnectNow(); // connected: nothing to do
      // the connection it left alone carries the next emit (a new attempt would have held it back)
      CompletableFuture<Void> typing = slow.setTyping("r1", true);
      second.ack(second.nextEmit("typing"), "{\"ok\":true}");
      Await.value(typing);
      gateway.assertNoSession();
      slowEvents.assertNoStateChange();
    }
  }

  @Test
  void droppedConnectionReconnects() throws Exception {
    GatewaySession first = connect();
    first.cancel();
    ConnectionStateChange c = events.assertNextState(ConnectionState.RECONNECTING);
    assertNotNull(c.cause());
    reconnectAfter(c).awaitConnect();
    events.assertNextState(ConnectionState.CONNECTED);
  }

  @Test
  void anUpgradeAnsweredWithAnHttpStatusReconnectsNamingTheStatus() throws Exception {
    gateway.upgradeAnswer = new okhttp3.mockwebserver.MockResponse().setResponseCode(503).setBody("down");
    client.connect("alice", "good-jwt");
    events.assertNextState(ConnectionState.CONNECTING);
    ConnectionStateChange failed = events.assertNextState(ConnectionState.RECONNECTING, "transport_error");
    assertTrue(String.valueOf(failed.cause()).contains("the WebSocket upgrade was answered 503"), failed.toString());
    gateway.upgradeAnswer = null;
    reconnectAfter(failed).awaitConnect();
    events.assertNextState(ConnectionState.CONNECTED);
  }

  @Test
  void failedHandshakeReconnects() throws Exception {
    gateway.openPacket = "42[\"not-an-open-packet\"]";
    client.connect("alice", "good-jwt");
    gateway.nextSession();
    events.assertNextState(ConnectionState.CONNECTING);
    ConnectionStateChange failed = events.assertNextState(ConnectionState.RECONNECTING, "handshake_failed");
    gateway.openPacket = FakeGateway.openPacket(25_000, 20_000);
    reconnectAfter(failed);
    events.awaitState(ConnectionState.CONNECTED);
  }

  @Test
  void sessionExpiredDisconnectsWithTokenExpiredThenConnectRefreshes() throws Exception {
    GatewaySession first = connect();
    join(first, "r1");
    first.send("42[\"session-expired\",{\"code\":\"token_expired\"}]");
    first.send("41");
    first.close();
    ConnectionStateChange c = events.assertNextState(ConnectionState.DISCONNECTED, "token_expired");
    assertTrue(((ApiException) c.cause()).isTokenExpired());
    assertNoReconnect();

    CompletableFuture<Void> refreshed = client.connect("alice", "new-jwt");
    GatewaySession second = gateway.nextSession();
    assertEquals("{\"token\":\"new-jwt\"}", second.awaitConnect());
    Await.value(refreshed);
    assertEquals("{\"roomId\":\"r1\"}", second.nextEmit("join-room").payload);
  }

  @Test
  void serverDisconnectDoesNotReconnect() throws Exception {
    GatewaySession first = connect();
    first.send("41");
    events.assertNextState(ConnectionState.DISCONNECTED, "server_disconnect");
    assertEquals("<close 1000>", first.nextFrame()); // closes without answering DISCONNECT
    assertNoReconnect();
  }

  @Test
  void connectWithANewTokenMakesBeforeBreakKeepingTheRoomAndDeliveringEachMessageOnce() throws Exception {
    GatewaySession first = connect();
    join(first, "r1");
    CompletableFuture<Void> refreshed = client.connect("alice", "new-jwt");
    GatewaySession second = gateway.nextSession(); // the app sees no state change: still CONNECTED
    assertEquals(ConnectionState.CONNECTED, client.state());
    // the old connection stays open and keeps delivering while the new one opens
    first.send(Frames.newMessage("m1", "r1", 1, "one"));
    assertEquals(1, events.assertNextMessage().seq());
    assertEquals("{\"token\":\"new-jwt\"}", second.awaitConnect());
    Await.value(refreshed);
    assertEquals("{\"roomId\":\"r1\"}", second.nextEmit("join-room").payload);
    // both carry seq 2; the new one also 3, held back until the old one drained
    second.send(Frames.newMessage("m2", "r1", 2, "two"));
    second.send(Frames.newMessage("m3", "r1", 3, "three"));
    GatewaySession.Emit barrier = first.nextEmit("leave-room");
    assertEquals("{\"roomId\":\"00000000-0000-0000-0000-000000000000\"}", barrier.payload);
    // the old connection's copy of m2 is the one delivered: the new connection's is held back until then
    first.send(Frames.newMessage("m2", "r1", 2, "two, on the old connection"));
    assertEquals("two, on the old connection", events.assertNextMessage().text());
    first.ack(barrier, "{\"ok\":true}");
    // the old connection delivers for a grace of 250 ms after the barrier's answer, then it is closed
    Await.until("the grace is set", () -> time.nextDueMillis() == time.nowMillis() + 250);
    time.advance(250);
    assertEquals("41", first.nextNonPong());
    assertEquals(3, events.assertNextMessage().seq());
    // each once: the next message of the new connection is the next one delivered
    second.send(Frames.newMessage("m4", "r1", 4, "four"));
    assertEquals(4, events.assertNextMessage().seq());
  }

  @Test
  void operationsDuringARefreshWaitForTheNewConnectionInsteadOfFailing() throws Exception {
    GatewaySession first = connect();
    gateway.onConnect = auth -> null; // the new connection's CONNECT is answered by hand below
    client.connect("alice", "new-jwt");
    GatewaySession second = gateway.nextSession();
    assertEquals("{\"token\":\"new-jwt\"}", second.awaitConnect());
    CompletableFuture<Void> typing = client.setTyping("r1", true); // no accepted new connection yet
    assertEquals(ConnectionState.CONNECTED, client.state());
    assertFalse(typing.isDone());
    second.send("40{\"sid\":\"s2\"}");
    GatewaySession.Emit emit = second.nextEmit("typing"); // sent on the new connection once accepted
    second.ack(emit, "{\"ok\":true}");
    Await.value(typing);
    // the app saw no state change through the refresh: the first one it sees is the disconnect's
    Await.value(client.disconnect());
    events.assertNextState(ConnectionState.DISCONNECTED, "client_disconnect");
  }

  @Test
  void joinRoomAnswersTheRoom() throws Exception {
    GatewaySession session = connect();
    Room room = join(session, "r1");
    assertEquals("r1", room.id());
    assertEquals("General", room.name());
    assertEquals(3, room.lastMessageSeq());
    assertEquals(5, room.rev());
  }

  @Test
  void refusedJoinFailsWithApiException() throws Exception {
    GatewaySession session = connect();
    CompletableFuture<Room> joined = client.joinRoom("r2");
    GatewaySession.Emit emit = session.nextEmit("join-room");
    session.ack(emit, "{\"ok\":false,\"error\":{\"code\":\"forbidden\",\"message\":\"not a member\"}}");
    ApiException e = Await.failure(joined, ApiException.class);
    assertEquals(403, e.status());
    assertEquals("forbidden", e.code());
    assertEquals("not a member", e.getMessage());
  }

  @Test
  void ackIdsCountFromZero() throws Exception {
    GatewaySession session = connect();
    client.joinRoom("r1");
    assertEquals(0, session.nextEmit("join-room").ackId);
    client.leaveRoom("r1");
    assertEquals(1, session.nextEmit("leave-room").ackId);
  }

  @Test
  void leaveRoomIsAcknowledged() throws Exception {
    GatewaySession session = connect();
    join(session, "r1");
    CompletableFuture<Void> left = client.leaveRoom("r1");
    GatewaySession.Emit emit = session.nextEmit("leave-room");
    session.ack(emit, "{\"ok\":true}");
    Await.value(left);
  }

  @Test
  void joinWhileDisconnectedIsAStateError() throws Exception {
    Await.failure(client.joinRoom("r1"), ChatStateException.class);
  }

  @Test
  void joinWhileConnectingWaitsForTheConnection() throws Exception {
    client.connect("alice", "good-jwt");
    CompletableFuture<Room> joined = client.joinRoom("r1");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    GatewaySession.Emit emit = session.nextEmit("join-room");
    session.ack(emit, "{\"ok\":true,\"room\":" + Frames.roomJson("r1") + "}");
    assertEquals("r1", Await.value(joined).id());
  }

  @Test
  void unansweredAckTimesOut() throws Exception {
    GatewaySession session = connect();
    CompletableFuture<Room> joined = client.joinRoom("r1");
    session.nextEmit("join-room"); // its timer was set before it was sent
    time.advance(2_000);
    TransportException e = Await.failure(joined, TransportException.class);
    assertTrue(e.getMessage().contains("join-room"), e.getMessage());
  }

  @Test
  void pendingAcksFailWhenTheConnectionIsLost() throws Exception {
    GatewaySession session = connect();
    CompletableFuture<Room> joined = client.joinRoom("r1");
    session.nextEmit("join-room");
    session.cancel();
    Await.failure(joined, TransportException.class);
  }

  @Test
  void framesOverMaxPayloadAreNotSent() throws Exception {
    gateway.openPacket = "0{\"sid\":\"e\",\"upgrades\":[],\"pingInterval\":25000,\"pingTimeout\":20000,\"maxPayload\":1024}";
    GatewaySession session = connect();
    ApiException e = Await.failure(client.joinRoom(new String(new char[500]).replace('\0', 'é')), ApiException.class);
    assertEquals("payload_too_large", e.code());
    client.joinRoom("r1");
    assertEquals("{\"roomId\":\"r1\"}", session.nextEmit("join-room").payload);
  }

  @Test
  void disconnectSendsDisconnectThenClosesAndStays() throws Exception {
    GatewaySession session = connect();
    Await.value(client.disconnect());
    assertEquals("41", session.nextFrame());
    assertEquals("<close 1000>", session.nextFrame());
    events.assertNextState(ConnectionState.DISCONNECTED, "client_disconnect");
    assertNoReconnect();
    Await.failure(client.joinRoom("r1"), ChatStateException.class);
  }

  @Test
  void aRoomLeftBeforeItsJoinWasAnsweredIsNotJoinedAgainAfterAReconnect() throws Exception {
    GatewaySession session = connect();
    CompletableFuture<Room> joined = client.joinRoom("r1");
    CompletableFuture<Void> left = client.leaveRoom("r1"); // at once, before the join's answer
    GatewaySession.Emit join = session.nextEmit("join-room");
    GatewaySession.Emit leave = session.nextEmit("leave-room");
    session.ack(join, "{\"ok\":true,\"room\":" + Frames.roomJson("r1") + "}");
    session.ack(leave, "{\"ok\":true}");
    Await.value(joined);
    Await.value(left);
    session.cancel();
    GatewaySession next = reconnectAfter(events.awaitState(ConnectionState.RECONNECTING));
    next.awaitConnect();
    Await.until("reconnected", () -> client.state() == ConnectionState.CONNECTED);
    client.joinRoom("r2");
    assertEquals("{\"roomId\":\"r2\"}", next.nextEmit("join-room").payload,
        "the left room r1 was joined again on the new connection");
  }
}
