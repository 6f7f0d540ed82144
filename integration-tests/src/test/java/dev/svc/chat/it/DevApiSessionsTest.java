package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
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
import dev.svc.chat.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dev API's {@code expire-sessions} (docs/console.md) against the SDK: the session manager's client gets
 * {@code session-expired}, fetches a new session and carries on, and messages sent meanwhile arrive.
 */
class DevApiSessionsTest {
  private final AtomicInteger fetches = new AtomicInteger();
  private final List<String> logs = new CopyOnWriteArrayList<>();
  private ReferenceServer server;
  private ServerClient svc;
  private SessionManager manager;
  private ChatClient bob;
  private String roomId;

  @BeforeEach
  void setUp() throws Exception {
    server = ReferenceServer.builder().port(0).build().start();
    svc = ServerClient.create(server.apiUrl(), server.apiKey());
    roomId = svc.createRoom("dev-api", List.of("alice", "bob")).id();
    manager = SessionManager.builder(SessionFetcher.of(() -> {
      fetches.incrementAndGet();
      MintedToken t = svc.mintToken(MintRequest.builder("alice").build());
      return Session.builder(t.token(), t.apiUrl(), t.userId(), t.expiresAtMillis()).build();
    }), s -> { }).logger((level, message, error) -> logs.add(message)).build();
    bob = Svc.init(server.apiUrl());
    bob.connect("bob", svc.mintToken(MintRequest.builder("bob").build()).token()).get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() {
    if (manager != null) manager.close();
    if (bob != null) bob.close();
    if (server != null) server.close();
  }

  @Test
  void expiringTheSessionsOfAUserMakesItsClientFetchANewSessionAndGoOn() throws Exception {
    manager.start();
    Await.until("READY", () -> manager.state().status() == SessionStatus.READY);
    ChatClient alice = manager.state().client();
    List<Long> seqs = new CopyOnWriteArrayList<>();
    alice.on(EventType.NEW_MESSAGE, (Message m) -> seqs.add(m.seq()));
    alice.joinRoom(roomId).get(30, TimeUnit.SECONDS);
    assertEquals(1, fetches.get());

    Admin admin = new Admin(server.apiUrl(), server.apiKey());
    Admin.Answer expired = admin.call("POST", "/v1/dev/users/alice/expire-sessions", null, admin.apiKeyHeader());
    assertEquals(200, expired.status(), expired.body().toString());
    assertEquals(1, expired.body().path("connections").asInt());

    Await.until("a new session fetched", () -> fetches.get() >= 2, () -> String.join("\n", logs));
    Await.until("connected again", () -> alice.state() == ConnectionState.CONNECTED, () -> String.join("\n", logs));
    bob.sendText(roomId, "after the expiry").get(30, TimeUnit.SECONDS);
    Await.until("the message", () -> seqs.contains(1L), () -> seqs + "\n" + String.join("\n", logs));
    Message own = alice.sendText(roomId, "alice again").get(30, TimeUnit.SECONDS);
    assertEquals(2, own.seq());
    assertTrue(logs.stream().noneMatch(m -> m.contains("was refused")), String.join("\n", logs));
  }
}
