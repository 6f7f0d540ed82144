package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.WAIT;
import static dev.svc.chat.it.Futures.apiError;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Room;
import dev.svc.chat.reference.ReferenceServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Mint, connect, join, send and receive: the SDK against the reference server, end to end. */
class EndToEndChatTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
  private ChatFixture chat;
  private Admin admin;

  @BeforeEach
  void start() {
    chat = new ChatFixture(ReferenceServer.builder().port(0).clock(clock));
    admin = chat.admin();
  }

  @AfterEach
  void stop() {
    chat.close();
  }

  @Test
  void twoUsersChatAndEachSeesTheOthersMessagesOnce() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Message> aliceSees = new RecordingHandler<>();
    RecordingHandler<Message> bobSees = new RecordingHandler<>();
    alice.on(EventType.NEW_MESSAGE, aliceSees);
    bob.on(EventType.NEW_MESSAGE, bobSees);

    Room joined = await(alice.joinRoom(room));
    assertEquals(List.of("alice", "bob"), joined.memberIds());
    assertEquals(List.of(room), await(bob.listRooms()).stream().map(Room::id).toList());

    Message sent = await(alice.sendText(room, "hi bob"));
    assertEquals(1, sent.seq());
    assertEquals("alice", sent.senderId());
    assertEquals(36, sent.clientMessageId().length(), "a UUID made by the SDK");

    // new-message goes to every member's connections, whatever room they joined (bob joined none).
    Message got = bobSees.next(WAIT);
    assertEquals(sent, got);
    assertEquals(sent, aliceSees.next(WAIT), "the sender's own connections get it too");

    Message reply = await(bob.sendMessage(room, List.of(MessagePart.text("hello"), MessagePart.text("alice"))));
    assertEquals(2, reply.seq());
    assertEquals(reply, aliceSees.next(WAIT));
    assertEquals(reply, bobSees.next(WAIT));
    aliceSees.assertNoMore();
    bobSees.assertNoMore();
  }

  @Test
  void historyPagesBySeqInBothDirections() throws Exception {
    String room = admin.createRoom("history", "alice");
    ChatClient alice = chat.connected("alice");
    for (int i = 1; i <= 7; i++) await(alice.sendText(room, "m" + i));

    MessagePage latest = await(alice.getMessages(room, MessageQuery.latest(3)));
    assertEquals(List.of(5L, 6L, 7L), latest.messages().stream().map(Message::seq).toList());
    assertTrue(latest.hasMore());

    MessagePage older = await(alice.getMessages(room, MessageQuery.before(5, 3)));
    assertEquals(List.of(2L, 3L, 4L), older.messages().stream().map(Message::seq).toList());
    assertTrue(older.hasMore());
    MessagePage oldest = await(alice.getMessages(room, MessageQuery.before(2, 3)));
    assertEquals(List.of(1L), oldest.messages().stream().map(Message::seq).toList());
    assertFalse(oldest.hasMore());

    MessagePage missed = await(alice.getMessages(room, MessageQuery.after(4, 2)));
    assertEquals(List.of(5L, 6L), missed.messages().stream().map(Message::seq).toList());
    assertTrue(missed.hasMore());
    MessagePage rest = await(alice.getMessages(room, MessageQuery.after(6, 50)));
    assertEquals(List.of(7L), rest.messages().stream().map(Message::seq).toList());
    assertFalse(rest.hasMore());
    assertEquals("m7", rest.messages().get(0).parts().get(0).text());

    // The SDK checks the limit where it is set; the server would answer 400.
    assertThrows(IllegalArgumentException.class, () -> MessageQuery.latest(101));
  }

  @Test
  void aRetryWithTheSameClientMessageIdReturnsTheFirstMessageAndEmitsOnce() throws Exception {
    String room = admin.createRoom("retry", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Message> bobSees = new RecordingHandler<>();
    bob.on(EventType.NEW_MESSAGE, bobSees);

    List<MessagePart> parts = List.of(MessagePart.text("only once"));
    Message first = await(alice.sendMessage(room, parts, "client-msg-1"));
    Message again = await(alice.sendMessage(room, parts, "client-msg-1"));
    assertEquals(first, again);
    Message next = await(alice.sendText(room, "after"));
    assertEquals(2, next.seq(), "the retry took no seq");

    assertEquals(first, bobSees.next(WAIT));
    assertEquals(next, bobSees.next(WAIT), "the retry emitted a second new-message");
    bobSees.assertNoMore();
  }

  @Test
  void aTokenOfAnotherUserCannotActAsTheConnectedOne() throws Exception {
    String room = admin.createRoom("mixup", "alice", "bob");
    ChatClient c = chat.newClient();
    // The app says it is alice but holds bob's token: the server refuses to let it act as alice.
    await(c.connect("alice", admin.mint("bob")));
    ApiException e = apiError(c.sendText(room, "hi"));
    assertEquals(403, e.status());
    assertEquals("forbidden", e.code());
    assertEquals("Cannot act as another user", e.getMessage());
  }

  @Test
  void impersonationOverRawRestIs403WithTheContractMessage() throws Exception {
    String room = admin.createRoom("raw", "alice", "bob");
    Admin.Answer a = admin.call("POST", "/v1/chat/rooms/" + room + "/messages",
        Map.of("parts", List.of(Map.of("type", "text", "text", "x")), "clientMessageId", "c", "senderId", "bob"),
        Admin.bearer(admin.mint("alice")));
    assertEquals(403, a.status());
    assertEquals("forbidden", a.errorCode());
    assertEquals("Cannot act as another user", a.errorMessage());
  }

  @Test
  void nonMembersAreRefusedAndOtherTenantsRoomsDoNotExist() throws Exception {
    String room = admin.createRoom("private", "bob");
    ChatClient alice = chat.connected("alice");
    ApiException forbidden = apiError(alice.getMessages(room, MessageQuery.latest(10)));
    assertEquals(403, forbidden.status());
    assertEquals("forbidden", forbidden.code());
    ApiException joinRefused = apiError(alice.joinRoom(room));
    assertEquals("forbidden", joinRefused.code());

    dev.svc.chat.reference.TenantInfo other = chat.server().createTenant();
    String theirRoom = new Admin(chat.server().apiUrl(), other.apiKey()).createRoom("theirs", "alice");
    ApiException hidden = apiError(alice.getMessages(theirRoom, MessageQuery.latest(10)));
    assertEquals(404, hidden.status());
    assertEquals("not_found", hidden.code());
  }

  @Test
  void sessionTokenOnAnAdminRouteIs401() throws Exception {
    Admin.Answer a = admin.call("POST", "/v1/chat/rooms", Map.of("memberIds", List.of("alice")),
        Admin.bearer(admin.mint("alice")));
    assertEquals(401, a.status());
    assertEquals("unauthorized", a.errorCode());
    Admin.Answer mint = admin.call("POST", "/v1/auth/token", Map.of("userId", "alice"),
        Admin.bearer(admin.mint("alice")));
    assertEquals(401, mint.status());
  }

  @Test
  void expiresInOverADayIs400() throws Exception {
    Admin.Answer a = admin.call("POST", "/v1/auth/token", Map.of("userId", "alice", "expiresIn", 86401),
        admin.apiKeyHeader());
    assertEquals(400, a.status());
    assertEquals("bad_request", a.errorCode());
    Admin.Answer max = admin.call("POST", "/v1/auth/token", Map.of("userId", "alice", "expiresIn", 86400),
        admin.apiKeyHeader());
    assertEquals(200, max.status());
    assertEquals(Instant.parse("2026-11-22T10:00:00Z"), Instant.parse(max.body().get("expiresAt").asText()));
  }

  @Test
  void connectIsRefusedForAnExpiredOrTamperedToken() throws Exception {
    ChatClient c = chat.newClient();
    String token = admin.mint("alice", 60);
    String tampered = token.substring(0, token.lastIndexOf('.') + 1) + "c2lnbmF0dXJl";
    ApiException bad = apiError(c.connect("alice", tampered));
    assertEquals("unauthorized", bad.code());

    clock.advance(Duration.ofSeconds(61));
    ApiException expired = apiError(c.connect("alice", token));
    assertEquals("token_expired", expired.code());
    assertTrue(expired.isTokenExpired());
    assertNotEquals(dev.svc.chat.ConnectionState.CONNECTED, c.state());
  }

  @Test
  void anApiKeyIsRefusedWhereASessionTokenBelongs() {
    ChatClient c = chat.newClient();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> c.connect("alice", chat.server().apiKey()));
    assertTrue(e.getMessage().contains("API key"), e.getMessage());
    assertFalse(e.getMessage().contains(chat.server().apiKey()), "the key must not be echoed");
  }
}
