package dev.svc.chat.it;

import dev.svc.chat.testkit.VirtualClock;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Receipt;
import dev.svc.chat.Svc;
import dev.svc.chat.TypingEvent;
import dev.svc.chat.reference.ReferenceServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reference server's gateway against the official npm {@code socket.io-client} 4.x. */
class OfficialClientInteropTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-21T10:00:00Z"));
  private ChatFixture chat;
  private Admin admin;
  private String origin;

  @BeforeEach
  void start() {
    chat = new ChatFixture(ReferenceServer.builder().port(0).clock(clock));
    admin = chat.admin();
    origin = chat.server().apiUrl().replaceFirst("/v1$", "");
  }

  @AfterEach
  void stop() {
    chat.close();
  }

  private NodeScript client(Map<String, Object> auth) throws Exception {
    return NodeScript.start("official-client.js", Admin.JSON.writeValueAsString(Map.of("origin", origin, "auth", auth)));
  }

  @Test
  void connectsJoinsAndReceivesMessageSentOverRest() throws Exception {
    String room = admin.createRoom("interop", "alice", "bob");
    String aliceToken = admin.mint("alice");
    try (NodeScript alice = client(Map.of("token", aliceToken))) {
      alice.await("connect", WAIT);
      alice.send("join " + room);
      JsonNode ack = alice.await("ack", WAIT).get("ack");
      assertTrue(ack.get("ok").asBoolean(), ack.toString());
      assertEquals(room, ack.path("room").path("id").asText());
      assertEquals(List.of("alice", "bob"), Admin.JSON.convertValue(ack.path("room").path("memberIds"), List.class));

      Admin.Answer sent = admin.call("POST", "/v1/chat/rooms/" + room + "/messages",
          Map.of("parts", List.of(Map.of("type", "text", "text", "hi from bob")), "clientMessageId", "c-1"),
          Admin.bearer(admin.mint("bob")));
      assertEquals(201, sent.status(), sent.body().toString());

      JsonNode event = alice.await("server-event", WAIT);
      assertEquals("new-message", event.get("name").asText());
      JsonNode message = event.get("args").get(0);
      assertEquals(sent.body().get("id").asText(), message.get("id").asText());
      assertEquals(1, message.get("seq").asLong());
      assertEquals("bob", message.get("senderId").asText());
      assertEquals("hi from bob", message.at("/parts/0/text").asText());
    }
  }

  @Test
  void joinOfAnotherUsersRoomIsRefusedInTheAck() throws Exception {
    String room = admin.createRoom("private", "bob", "carol");
    try (NodeScript alice = client(Map.of("token", admin.mint("alice")))) {
      alice.await("connect", WAIT);
      alice.send("join " + room);
      JsonNode ack = alice.await("ack", WAIT).get("ack");
      assertEquals(false, ack.get("ok").asBoolean());
      assertEquals("forbidden", ack.at("/error/code").asText());
    }
  }

  @Test
  void badTokenIsRefusedWithUnauthorized() throws Exception {
    String tampered = admin.mint("alice");
    tampered = tampered.substring(0, tampered.length() - 2) + (tampered.endsWith("AA") ? "BB" : "AA");
    try (NodeScript client = client(Map.of("token", tampered))) {
      JsonNode error = client.await("connect_error", WAIT);
      assertEquals("unauthorized", error.get("message").asText());
      assertEquals("unauthorized", error.at("/data/code").asText());
    }
  }

  @Test
  void expiredTokenIsRefusedWithTokenExpired() throws Exception {
    String token = admin.mint("alice", 60);
    clock.advance(Duration.ofSeconds(61));
    try (NodeScript client = client(Map.of("token", token))) {
      JsonNode error = client.await("connect_error", WAIT);
      assertEquals("token_expired", error.get("message").asText());
      assertEquals("token_expired", error.at("/data/code").asText());
    }
  }

  @Test
  void missingAuthIsRefused() throws Exception {
    try (NodeScript client = client(Map.of())) {
      assertEquals("unauthorized", client.await("connect_error", WAIT).at("/data/code").asText());
    }
  }

  @Test
  void apiKeyConnectionMayJoinAnyRoomOfTheTenant() throws Exception {
    String room = admin.createRoom("ops", "bob");
    try (NodeScript bot = client(Map.of("apiKey", chat.server().apiKey()))) {
      bot.await("connect", WAIT);
      bot.send("join " + room);
      assertTrue(bot.await("ack", WAIT).at("/ack/ok").asBoolean());
    }
  }

  private JsonNode serverEvent(NodeScript client, String name) throws InterruptedException {
    return client.await(e -> "server-event".equals(e.path("event").asText()) && name.equals(e.path("name").asText()),
        name, WAIT).get("args").get(0);
  }

  @Test
  void seesMessageUpdatedTypingPresenceAndRoomReadFromTheSdk() throws Exception {
    String room = admin.createRoom("interop", "alice", "bob");
    try (NodeScript alice = client(Map.of("token", admin.mint("alice")));
         ChatClient bob = Svc.init(chat.server().apiUrl())) {
      alice.await("connect", WAIT);
      alice.send("join " + room);
      assertTrue(alice.await("ack", WAIT).at("/ack/ok").asBoolean());

      // tenant-presence: bob's first connection
      await(bob.connect("bob", admin.mint("bob")));
      JsonNode presence = serverEvent(alice, "tenant-presence");
      assertEquals("bob", presence.get("userId").asText());
      assertTrue(presence.get("online").asBoolean());
      assertEquals("2026-11-21T10:00:00.000Z", presence.get("at").asText());

      // message-updated: an edit and a reaction by the SDK
      Message sent = await(bob.sendText(room, "helo"));
      assertEquals(sent.id(), serverEvent(alice, "new-message").get("id").asText());
      await(bob.updateMessage(room, sent.id(), List.of(MessagePart.text("hello"))));
      JsonNode updated = serverEvent(alice, "message-updated");
      assertEquals("hello", updated.at("/parts/0/text").asText());
      assertEquals("2026-11-21T10:00:00.000Z", updated.get("editedAt").asText());
      await(bob.toggleReaction(room, sent.id(), "👍"));
      assertEquals("bob", serverEvent(alice, "message-updated").at("/reactions/👍/0").asText());

      // typing both ways: the SDK's typing reaches the official client, and the official client's reaches the SDK
      await(bob.joinRoom(room));
      RecordingHandler<TypingEvent> bobSees = new RecordingHandler<>();
      bob.on(EventType.TYPING, bobSees);
      await(bob.setTyping(room, true));
      JsonNode typing = serverEvent(alice, "typing");
      assertEquals(Map.of("roomId", room, "userId", "bob", "isTyping", true), Admin.JSON.convertValue(typing, Map.class));
      alice.send("typing " + room + " true");
      JsonNode ack = alice.await("ack", WAIT);
      assertEquals("typing", ack.get("of").asText());
      assertTrue(ack.at("/ack/ok").asBoolean(), ack.toString());
      assertEquals(TypingEvent.of(room, "alice", true), bobSees.next(WAIT));
      alice.send("typing not-the-joined-room true");
      assertEquals("bad_request", alice.await("ack", WAIT).at("/ack/error/code").asText());

      // room-read: bob's receipt
      Receipt receipt = await(bob.markRead(room, sent.id()));
      JsonNode read = serverEvent(alice, "room-read");
      assertEquals(receipt.messageId(), read.get("messageId").asText());
      assertEquals(1, read.get("seq").asLong());
      assertEquals("bob", read.get("userId").asText());

      // tenant-presence again: bob's last connection closes
      await(bob.disconnect());
      JsonNode offline = serverEvent(alice, "tenant-presence");
      assertEquals("bob", offline.get("userId").asText());
      assertEquals(false, offline.get("online").asBoolean());
    }
  }
}
