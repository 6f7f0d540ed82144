package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.GatedExecutor;
import dev.svc.chat.testing.GatewaySession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every future the client returns ends, normally or with an exception, whatever cuts it short: close(),
 * disconnect(), or a lost connection. An app awaiting one must never hang. Each case leaves an operation
 * half-way (a handshake unanswered, a token refresh under way, an acknowledgement outstanding) and then cuts.
 */
class FuturesEndTest {
  private static final String EXPIRED = "44{\"message\":\"token_expired\",\"data\":{\"code\":\"token_expired\"}}";

  private FakeGateway gateway;
  private ChatClient client;
  private GatedExecutor engineThread;
  private volatile CompletableFuture<String> nextToken = new CompletableFuture<>();

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) client.close();
    if (engineThread != null) engineThread.close();
    gateway.close();
  }

  private ChatClient client(SvcOptions.Builder options) {
    client = Svc.init(options.recoverMissedEvents(false).reconnectDelay(10, 100)
        .tokenRefresher(() -> nextToken).build());
    return client;
  }

  private ChatClient client() {
    return client(SvcOptions.builder(gateway.apiUrl()));
  }

  private GatewaySession connected() throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    return session;
  }

  /** Waits until {@code f} ended, failing the test (named by {@code what}) if it is still pending. */
  private static void assertEnds(String what, CompletableFuture<?> f) throws Exception {
    try {
      f.get(FakeGateway.TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException expected) {
      // ended with an exception: fine
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(what + " still pending " + FakeGateway.TIMEOUT_SECONDS + " s after the cut");
    }
  }

  // ---------------------------------------------------------------- connect

  @Test
  void aConnectWhoseHandshakeIsUnansweredEndsAtClose() throws Exception {
    client();
    gateway.onConnect = auth -> null;
    CompletableFuture<Void> connecting = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    client.close();
    Await.failure(connecting, ChatException.class);
  }

  @Test
  void aConnectWhoseHandshakeIsUnansweredEndsAtDisconnect() throws Exception {
    client();
    gateway.onConnect = auth -> null;
    CompletableFuture<Void> connecting = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(client.disconnect());
    Await.failure(connecting, ChatException.class);
  }

  @Test
  void aConnectWaitingForATokenRefreshEndsAtClose() throws Exception {
    client();
    EventRecorder events = EventRecorder.attach(client);
    gateway.onConnect = auth -> EXPIRED; // the refresher's future stays pending
    CompletableFuture<Void> connecting = client.connect("alice", "old-jwt");
    events.awaitState(ConnectionState.RECONNECTING);
    client.close();
    Await.failure(connecting, ChatException.class);
  }

  @Test
  void aConnectWaitingForATokenRefreshEndsAtDisconnect() throws Exception {
    client();
    EventRecorder events = EventRecorder.attach(client);
    gateway.onConnect = auth -> EXPIRED;
    CompletableFuture<Void> connecting = client.connect("alice", "old-jwt");
    events.awaitState(ConnectionState.RECONNECTING);
    Await.value(client.disconnect());
    Await.failure(connecting, ChatException.class);
    nextToken.complete("new-jwt"); // late: the client stays disconnected
    events.awaitState(ConnectionState.DISCONNECTED);
  }

  @Test
  void aConnectWaitingForATokenRefreshThatFailsEnds() throws Exception {
    client();
    EventRecorder events = EventRecorder.attach(client);
    gateway.onConnect = auth -> EXPIRED;
    CompletableFuture<Void> connecting = client.connect("alice", "old-jwt");
    events.awaitState(ConnectionState.RECONNECTING);
    // a transient failure: the client keeps trying (RECONNECTING), and the connect ends as for a lost attempt
    nextToken.completeExceptionally(new IllegalStateException("the backend is down"));
    Await.failure(connecting, TransportException.class);
  }

  @Test
  void aConnectWaitingForATokenRefreshThatIsRefusedEnds() throws Exception {
    client();
    EventRecorder events = EventRecorder.attach(client);
    gateway.onConnect = auth -> EXPIRED;
    CompletableFuture<Void> connecting = client.connect("alice", "old-jwt");
    events.awaitState(ConnectionState.RECONNECTING);
    nextToken.completeExceptionally(new ApiException(401, "unauthorized", "signed out"));
    assertEquals("token_expired", Await.failure(connecting, ApiException.class).code());
  }

  @Test
  void aSecondConnectDuringARefreshEndsWithTheFirst() throws Exception {
    client();
    EventRecorder events = EventRecorder.attach(client);
    gateway.onConnect = auth -> auth.contains("old-jwt") ? EXPIRED : "40{\"sid\":\"s\"}";
    CompletableFuture<Void> first = client.connect("alice", "old-jwt");
    events.awaitState(ConnectionState.RECONNECTING);
    CompletableFuture<Void> second = client.connect("alice", "app-jwt"); // the app's own fresh token meanwhile
    Await.value(second);
    assertEnds("the first connect", first);
  }

  // ---------------------------------------------------------------- joinRoom and leaveRoom

  @Test
  void aJoinWaitingForTheConnectionEndsAtClose() throws Exception {
    client();
    gateway.onConnect = auth -> null;
    CompletableFuture<Void> connecting = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    CompletableFuture<Room> join = client.joinRoom("r1");
    CompletableFuture<Void> leave = client.leaveRoom("r2");
    client.close();
    assertEnds("joinRoom", join);
    assertEnds("leaveRoom", leave);
    assertEnds("connect", connecting);
  }

  @Test
  void aJoinWaitingForATokenRefreshEndsAtDisconnect() throws Exception {
    client();
    EventRecorder events = EventRecorder.attach(client);
    gateway.onConnect = auth -> EXPIRED;
    client.connect("alice", "old-jwt");
    events.awaitState(ConnectionState.RECONNECTING);
    CompletableFuture<Room> join = client.joinRoom("r1");
    Await.value(client.disconnect());
    Await.failure(join, ChatException.class);
  }

  @Test
  void joinsAndLeavesWhoseAcknowledgementIsOutstandingEndAtACut() throws Exception {
    client();
    GatewaySession session = connected();
    CompletableFuture<Room> join = client.joinRoom("r1");
    session.nextEmit("join-room");
    CompletableFuture<Void> leave = client.leaveRoom("r2");
    session.nextEmit("leave-room");
    gateway.dropConnections();
    Await.failure(join, TransportException.class);
    Await.failure(leave, TransportException.class);
  }

  @Test
  void joinsAndLeavesWhoseAcknowledgementIsOutstandingEndAtDisconnectAndClose() throws Exception {
    client();
    GatewaySession session = connected();
    CompletableFuture<Room> join = client.joinRoom("r1");
    session.nextEmit("join-room");
    CompletableFuture<Void> leave = client.leaveRoom("r2");
    session.nextEmit("leave-room");
    Await.value(client.disconnect());
    Await.failure(join, ChatException.class);
    Await.failure(leave, ChatException.class);

    GatewaySession again = connected();
    CompletableFuture<Room> join2 = client.joinRoom("r1");
    again.nextEmit("join-room");
    CompletableFuture<Void> leave2 = client.leaveRoom("r2");
    again.nextEmit("leave-room");
    client.close();
    Await.failure(join2, ChatException.class);
    Await.failure(leave2, ChatException.class);
  }

  // ---------------------------------------------------------------- close while the engine is busy

  /**
   * The soak's case: close() on a loaded machine, where the engine's closing task does not get its turn within
   * the close's grace and is dropped with the engine's queue. Whatever was under way must end all the same.
   */
  @Test
  void everythingUnderWayEndsWhenCloseFindsTheEngineBusy() throws Exception {
    engineThread = new GatedExecutor(1);
    client(SvcOptions.builder(gateway.apiUrl()).engineExecutor(engineThread).sendTimeoutMillis(600_000));
    GatewaySession session = connected();
    List<String> names = new ArrayList<>();
    List<CompletableFuture<?>> futures = new ArrayList<>();
    names.add("joinRoom acknowledged never");
    futures.add(client.joinRoom("r1"));
    session.nextEmit("join-room");
    names.add("leaveRoom acknowledged never");
    futures.add(client.leaveRoom("r2"));
    session.nextEmit("leave-room");
    names.add("sendMessage");
    futures.add(client.sendMessage("r1", Collections.singletonList(MessagePart.text("hi")), "c1"));
    engineThread.hold(); // the engine is busy from here on: what is posted now waits
    names.add("joinRoom posted");
    futures.add(client.joinRoom("r3"));
    names.add("disconnect posted");
    futures.add(client.disconnect());
    names.add("connect posted");
    futures.add(client.connect("alice", "other-jwt"));
    client.close(); // its closing task waits behind the hold longer than its grace
    engineThread.release();
    for (int i = 0; i < futures.size(); i++) assertEnds(names.get(i), futures.get(i));
    // and the close is complete: no socket left open behind it (its reader thread would outlive the client)
    Await.until("the client to say CLOSED", () -> client.state() == ConnectionState.CLOSED,
        () -> "state " + client.state());
    assertTrue(session.awaitClosed(), "the socket was left open");
  }
}
