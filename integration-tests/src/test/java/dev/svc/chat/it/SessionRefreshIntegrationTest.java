package dev.svc.chat.it;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testkit.VirtualClock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Svc;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.MintedToken;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.session.Session;
import dev.svc.chat.session.SessionFetcher;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.session.SessionStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The session manager with a real client against the reference server, on virtual time shared by the
 * server's clock and the manager's scheduler: refreshes happen without waiting an hour.
 */
class SessionRefreshIntegrationTest {
  private final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-21T10:00:00Z"));
  private final VirtualSessionScheduler time = new VirtualSessionScheduler(clock);
  private final AtomicInteger fetches = new AtomicInteger();
  private final List<String> logs = new CopyOnWriteArrayList<>();
  private ReferenceServer server;
  private ServerClient svc;
  private SessionManager manager;
  private ChatClient bob;
  private String roomId;

  @BeforeEach
  void setUp() throws Exception {
    server = ReferenceServer.builder().port(0).clock(clock).build().start();
    svc = ServerClient.create(server.apiUrl(), server.apiKey());
    roomId = svc.createRoom("refresh", List.of("alice", "bob")).id();
    manager = SessionManager.builder(SessionFetcher.of(() -> {
      fetches.incrementAndGet();
      MintedToken t = svc.mintToken(MintRequest.builder("alice").username("Alice").build());
      return Session.builder(t.token(), t.apiUrl(), t.userId(), t.expiresAtMillis()).build();
    }), s -> { }).scheduler(time).logger((level, message, error) -> logs.add(message)).build();
    bob = Svc.init(server.apiUrl());
    bob.connect("bob", svc.mintToken(MintRequest.builder("bob").username("Bob").expiresIn(Duration.ofDays(1)).build()).token()).get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() {
    if (manager != null) manager.close();
    if (bob != null) bob.close();
    if (server != null) server.close();
  }

  private ChatClient startAlice() throws Exception {
    manager.start();
    Await.until("READY", () -> manager.state().status() == SessionStatus.READY);
    return manager.state().client();
  }

  @Test
  void theJoinedRoomAndAllHandlersSurviveRefreshesAndMessagesDuringThemArriveOnce() throws Exception {
    ChatClient alice = startAlice();
    List<Long> seqs = new CopyOnWriteArrayList<>();
    List<ConnectionStateChange> states = new CopyOnWriteArrayList<>();
    alice.on(EventType.NEW_MESSAGE, (Message m) -> seqs.add(m.seq()));
    alice.on(EventType.CONNECTION_STATE, states::add);
    alice.joinRoom(roomId).get(30, TimeUnit.SECONDS);

    int sent = 0;
    for (int refresh = 1; refresh <= 3; refresh++) {
      bob.sendText(roomId, "before " + refresh).get(30, TimeUnit.SECONDS);
      sent++;
      // bob keeps sending from another thread while the refresh reconnects alice
      CompletableFuture<Void> during = CompletableFuture.runAsync(() -> {
        for (int i = 0; i < 10; i++) bob.sendText(roomId, "during").join();
      });
      time.advance(Duration.ofMinutes(55)); // the refresh falls due: 5 minutes before expiry
      final int fetched = 1 + refresh; // the refresher runs on the callback executor: wait for it
      Await.until("fetch " + fetched, () -> fetches.get() >= fetched);
      assertEquals(fetched, fetches.get());
      during.get(30, TimeUnit.SECONDS);
      sent += 10;
      final int expected = sent;
      Await.until("messages " + refresh, () -> seqs.size() >= expected, () -> seqs + "\n" + String.join("\n", logs));
      Await.until("connected", () -> alice.state() == ConnectionState.CONNECTED);
      // Each refresh's connection is accepted (and the room joined on it) before the next refresh: the virtual
      // hour between refreshes is no time at all, and a refresh that overtakes one whose connection the loaded
      // server has not accepted yet drops that connection unjoined (UpdateTokenTest covers that case).
      final int joins = refresh;
      Await.until("the room joined on refresh " + refresh + "'s connection", () -> rejoins() >= joins,
          () -> String.join("\n", logs));
    }
    bob.sendText(roomId, "after").get(30, TimeUnit.SECONDS);
    sent++;
    final int total = sent;
    Await.until("the last message", () -> seqs.size() >= total);
    List<Long> expected = new ArrayList<>();
    for (long i = 1; i <= total; i++) expected.add(i);
    assertEquals(expected, new ArrayList<>(seqs), "each message once, in order");

    assertSame(alice, manager.state().client());
    // the refreshes were invisible: the app saw no state change at all while the tokens were replaced
    assertTrue(states.isEmpty(), states.toString());
    assertEquals(3, rejoins(), "the room was joined once on every new connection");
    assertFalse(logs.stream().anyMatch(m -> m.contains("was refused")), logs.toString());
    assertEquals(4, fetches.get());
  }

  private long rejoins() {
    return logs.stream().filter(m -> m.contains("joining room " + roomId + " again")).count();
  }

  @Test
  void aRestCallAndTheSocketHittingExpiryTogetherCauseOneFetch() throws Exception {
    ChatClient alice = startAlice();
    alice.joinRoom(roomId).get(30, TimeUnit.SECONDS);
    RecordingHandler<ConnectionStateChange> states = new RecordingHandler<>();
    alice.on(EventType.CONNECTION_STATE, states);
    // the server's clock passes the expiry while the manager's timer has not run: both paths see it
    clock.advance(Duration.ofMinutes(61));
    CompletableFuture<?> rest = alice.listRooms();
    alice.joinRoom(roomId); // an incoming event: the gateway checks the token and ends the connection
    assertEquals(1, ((List<?>) rest.get(30, TimeUnit.SECONDS)).size(), "the REST call succeeded after a refresh");
    // Either the REST refresh replaced the connection first (invisible: no state change), or the gateway ended
    // it as expired first (RECONNECTING, reason token_expired): never DISCONNECTED, and alice is live again.
    RecordingHandler<Message> live = new RecordingHandler<>();
    alice.on(EventType.NEW_MESSAGE, live);
    Await.until("connected with the new token", () -> alice.state() == ConnectionState.CONNECTED
        && manager.state().status() == SessionStatus.READY);
    bob.sendText(roomId, "are you there").get(30, TimeUnit.SECONDS);
    assertEquals("are you there", live.next(m -> m.text().equals("are you there")).text());
    assertTrue(states.all().stream().noneMatch(c -> c.current() == ConnectionState.DISCONNECTED
        || (c.current() == ConnectionState.RECONNECTING && c.reason() != ConnectionReason.TOKEN_EXPIRED)),
        states.all().toString());
    assertEquals(2, fetches.get(), "one fetch for both");
    assertEquals(SessionStatus.READY, manager.state().status());
  }

  @Test
  void anInvalidTokenIsAnErrorAfterOneAttempt() throws Exception {
    manager.close();
    AtomicInteger attempts = new AtomicInteger();
    manager = SessionManager.builder(SessionFetcher.of(() -> {
      attempts.incrementAndGet();
      return Session.builder("eyJhbGciOiJIUzI1NiJ9.e30.bad", server.apiUrl(), "alice",
          clock.millis() + 3_600_000).build();
    }), s -> { }).scheduler(time).build();
    manager.start();
    Await.until("ERROR", () -> manager.state().status() == SessionStatus.ERROR);
    assertEquals("unauthorized", ((dev.svc.chat.ApiException) manager.state().error()).code());
    time.advance(Duration.ofHours(2));
    assertEquals(1, attempts.get());
    assertEquals(ConnectionState.DISCONNECTED, manager.state().client().state());
  }
}
