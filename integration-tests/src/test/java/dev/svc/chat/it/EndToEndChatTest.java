package dev.svc.chat.it;

import dev.svc.chat.testkit.VirtualClock;
import static dev.svc.chat.it.Futures.WAIT;
import static dev.svc.chat.it.Futures.apiError;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChangesPage;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.reference.ReferenceServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Mint, connect, join, send and receive: the SDK against the reference server, end to end. */
class EndToEndChatTest {
  private final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-21T10:00:00Z"));
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
  void editsReactionsAndDeletesMissedOfflineAreRecoveredByRevAndReceiptsByGetReceipts() throws Exception {
    String room = admin.createRoom("recovery", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    RecordingHandler<Message> bobNew = ChatFixture.record(bob, EventType.NEW_MESSAGE);
    RecordingHandler<Message> bobUpdated = ChatFixture.record(bob, EventType.MESSAGE_UPDATED);
    assertEquals(0, await(bob.joinRoom(room)).rev(), "no message yet");

    Message m1 = await(alice.sendText(room, "one"));
    Message m2 = await(alice.sendText(room, "two"));
    Message m3 = await(alice.sendText(room, "three"));
    assertEquals(List.of(1L, 2L, 3L), List.of(m1.rev(), m2.rev(), m3.rev()));
    assertEquals(m3, bobNew.next(m -> m.id().equals(m3.id())), "new-message carries the rev");
    Message edited = await(alice.updateMessage(room, m1.id(), List.of(MessagePart.text("one!"))));
    assertEquals(4, edited.rev());
    assertEquals(edited, bobUpdated.next(WAIT), "message-updated carries the rev");
    long bobSeen = edited.rev();

    // bob goes offline; what changes meanwhile he recovers from the rev he had seen.
    await(bob.disconnect());
    Message reacted = await(alice.toggleReaction(room, m2.id(), "👍"));                      // rev 5
    Message deleted = await(alice.deleteMessage(room, m3.id()));                           // rev 6
    assertEquals(deleted, await(alice.deleteMessage(room, m3.id())), "a second delete is no change");
    Message unreacted = await(alice.toggleReaction(room, m2.id(), "👍"));                    // rev 7
    Message twice = await(alice.updateMessage(room, m1.id(), List.of(MessagePart.text("one!!")))); // rev 8
    await(alice.markRead(room, m2.id()));
    assertEquals(List.of(5L, 6L, 7L, 8L), List.of(reacted.rev(), deleted.rev(), unreacted.rev(), twice.rev()));
    assertEquals(8, await(alice.listRooms()).get(0).rev(), "the receipt took no rev");

    ChangesPage all = await(bob.getChanges(room, bobSeen));
    assertEquals(List.of(deleted, unreacted, twice), all.messages(), "each once, latest state, by rev");
    assertTrue(all.messages().get(0).isDeleted());
    assertTrue(all.messages().get(1).reactions().isEmpty());
    assertEquals("one!!", all.messages().get(2).text());
    assertEquals(8, all.rev());
    assertFalse(all.hasMore());

    ChangesPage first = await(bob.getChanges(room, bobSeen, 2));
    assertEquals(List.of(6L, 7L), first.messages().stream().map(Message::rev).toList());
    assertTrue(first.hasMore());
    ChangesPage next = await(bob.getChanges(room, first.messages().get(1).rev(), 2));
    assertEquals(List.of(twice), next.messages());
    assertFalse(next.hasMore());
    ChangesPage everything = await(bob.getChanges(room, 0));
    assertEquals(List.of(m3.id(), m2.id(), m1.id()), everything.messages().stream().map(Message::id).toList());
    assertTrue(await(bob.getChanges(room, 8)).messages().isEmpty());

    await(bob.markRead(room, m3.id()));
    List<Receipt> receipts = await(bob.getReceipts(room));
    assertEquals(List.of("alice", "bob"), receipts.stream().map(Receipt::userId).toList());
    assertEquals(List.of(m2.id(), m3.id()), receipts.stream().map(Receipt::messageId).toList());
    assertEquals(List.of(2L, 3L), receipts.stream().map(Receipt::seq).toList());

    String elsewhere = admin.createRoom("elsewhere", "alice");
    assertEquals("forbidden", apiError(bob.getChanges(elsewhere, 0)).code());
    assertEquals("forbidden", apiError(bob.getReceipts(elsewhere)).code());
    assertEquals(404, apiError(bob.getChanges("00000000-0000-0000-0000-000000000000", 0)).status());
    assertThrows(IllegalArgumentException.class, () -> bob.getChanges(room, -1));
    assertThrows(IllegalArgumentException.class, () -> bob.getChanges(room, 0, 101));
  }

  @Test
  void aRateLimitedSendTellsHowLongToWait() throws Exception {
    try (ChatFixture limited = new ChatFixture(ReferenceServer.builder().port(0).clock(clock).sendRateLimit(0.5, 1))) {
      String room = limited.admin().createRoom("slow", "alice");
      ChatClient alice = limited.connected("alice");
      await(alice.sendText(room, "first"));
      CompletableFuture<Message> second = alice.sendText(room, "second");
      // the outbox keeps the send and waits out Retry-After; the app sees why in pendingSends()
      long deadline = System.nanoTime() + Futures.WAIT.toNanos();
      while (alice.pendingSends().isEmpty() || alice.pendingSends().get(0).lastError() == null) {
        assertTrue(System.nanoTime() < deadline, "the send was never refused");
        Thread.onSpinWait();
      }
      ApiException e = (ApiException) alice.pendingSends().get(0).lastError();
      assertEquals(429, e.status());
      assertEquals("rate_limited", e.code());
      assertEquals(2000, e.retryAfterMillis(), "Retry-After: 2 (one send per 2 s)");
      clock.advance(Duration.ofSeconds(2)); // the server's clock: the retry after 2 s is let through
      assertEquals(2, await(second).seq());
      assertTrue(alice.pendingSends().isEmpty());
    }
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
