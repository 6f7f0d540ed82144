package dev.svc.chat.samples.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Svc;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.session.SessionStatus;
import dev.svc.chat.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The tenant backend sample, the reference server and the session manager end to end: tokens of four
 * seconds' real lifetime are refreshed several times while another user sends; every message arrives
 * exactly once and in order, and the joined room and the handlers survive every refresh.
 */
class SessionRefreshEndToEndTest {
  private static final int MESSAGES = 60;

  @Test
  void tokensRefreshWhileMessagesFlowAndNothingIsLostOrRepeated() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().port(0).build().start();
        TenantBackendServer backend = new TenantBackendServer(
            ServerClient.create(server.apiUrl(), server.apiKey()), Duration.ofSeconds(4)).start(0);
        ChatApp app = new ChatApp(backend.url(), s -> { })) {
      ServerClient svc = ServerClient.create(server.apiUrl(), server.apiKey());
      String roomId = svc.createRoom("refresh", List.of("alice", "bob")).id();

      // the route refuses without a login
      app.sessions().start();
      Await.until("ERROR without a login", () -> app.sessions().state().status() == SessionStatus.ERROR);
      assertEquals(0, backend.sessionsMinted());

      app.signIn("alice");
      app.sessions().start();
      Await.until("READY", () -> app.sessions().state().status() == SessionStatus.READY);
      ChatClient alice = app.sessions().state().client();
      List<Long> seqs = new CopyOnWriteArrayList<>();
      alice.on(EventType.NEW_MESSAGE, (Message m) -> seqs.add(m.seq()));
      alice.joinRoom(roomId).get(10, TimeUnit.SECONDS);

      try (ChatClient bob = Svc.init(server.apiUrl())) {
        bob.connect("bob", svc.mintToken(MintRequest.builder("bob").username("Bob").build()).token()).get(10, TimeUnit.SECONDS);
        long start = System.nanoTime();
        for (int i = 1; i <= MESSAGES; i++) {
          bob.sendText(roomId, "message " + i).get(10, TimeUnit.SECONDS);
          // spread the sends over about nine seconds, so several refreshes happen while they flow
          long due = start + TimeUnit.MILLISECONDS.toNanos(150L * i);
          // pacing the sender, not synchronisation: the assertions below wait on conditions
          java.util.concurrent.locks.LockSupport.parkNanos(Math.max(0, due - System.nanoTime()));
        }
        Await.until("all messages at alice", () -> seqs.size() >= MESSAGES);
        // alice's REST calls work with the current token too
        assertEquals(MESSAGES, alice.getMessages(roomId, MessageQuery.latest(100)).get(10, TimeUnit.SECONDS).messages().size());
      }
      List<Long> expected = new ArrayList<>();
      for (long i = 1; i <= MESSAGES; i++) expected.add(i);
      assertEquals(expected, new ArrayList<>(seqs), "every message once, in order");
      assertTrue(backend.sessionsMinted() >= 4, "refreshed several times: " + backend.sessionsMinted());
      assertSame(alice, app.sessions().state().client(), "the same client across refreshes");
      assertEquals(SessionStatus.READY, app.sessions().state().status());
      assertTrue(app.states().stream().noneMatch(s -> s.status() == SessionStatus.OFFLINE),
          "a refresh never looks like a lost network: " + app.states());
    }
  }
}
