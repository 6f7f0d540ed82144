package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatewaySession;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A client serves one user: connecting it as another user is refused and changes nothing of the first. */
class OneUserPerClientTest {
  private FakeGateway gateway;
  private ChatClient client;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).build());
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
    gateway.close();
  }

  @Test
  void connectingAsAnotherUserIsRefusedAndKeepsTheFirstUsersSession() throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "alice-jwt");
    GatewaySession first = gateway.nextSession();
    assertEquals("{\"token\":\"alice-jwt\"}", first.awaitConnect());
    Await.value(connected);

    ChatStateException refused = Await.failure(client.connect("bob", "bob-jwt"), ChatStateException.class);
    assertTrue(refused.getMessage().contains("signed in as alice"), refused.getMessage());
    // no handshake with bob's token on alice's client: alice's connection carries the next emit (one made during
    // a new connection's handshake would wait for that connection)
    CompletableFuture<Void> typing = client.setTyping("r1", true);
    first.ack(first.nextEmit("typing"), "{\"ok\":true}");
    Await.value(typing);
    gateway.assertNoSession();
    assertEquals("alice", client.userId());
    assertEquals(ConnectionState.CONNECTED, client.state());
    gateway.enqueueRest(new MockResponse().setHeader("Content-Type", "application/json")
        .setBody("{\"rooms\":[" + Frames.roomJson("r1") + "]}"));
    Await.value(client.listRooms());
    assertEquals("Bearer alice-jwt", gateway.takeRest().getHeader("Authorization"));
  }

  @Test
  void afterDisconnectAnotherUserIsStillRefused() throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "alice-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(connected);
    Await.value(client.disconnect());
    // the joined room, recovery ledgers and outbox are alice's: bob needs a client of his own
    Await.failure(client.connect("bob", "bob-jwt"), ChatStateException.class);
    // refused on the actor at once, as only a disconnected client refuses: no connection was begun before it
    Await.failure(client.setTyping("r1", true), ChatStateException.class);
    gateway.assertNoSession();
    assertEquals("alice", client.userId());
  }
}
