package dev.svc.chat.it;

import dev.svc.chat.testkit.VirtualClock;
import static dev.svc.chat.it.ChatFixture.record;
import static dev.svc.chat.it.Futures.WAIT;
import static dev.svc.chat.it.Futures.apiError;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.PresenceEvent;
import dev.svc.chat.Receipt;
import dev.svc.chat.TypingEvent;
import dev.svc.chat.reference.ReferenceServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The routing rules of contract section 5 for the messaging events, through the SDK against the reference
 * server: two users or more, two connections of one user, and a negative case for each rule. A negative
 * case is proven with a later marker event on the same connection: events of one connection arrive in the
 * order the server queued them, so if the marker is the first event seen, the unwanted one was never sent.
 */
class MessagingRoutingTest {
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
  void messageUpdatedGoesToEveryConnectionOfEveryMemberWhateverRoomItJoined() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    String aside = admin.createRoom("aside", "alice", "carol");
    ChatClient alice1 = chat.connected("alice");
    ChatClient alice2 = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    ChatClient carol = chat.connected("carol");
    await(alice1.joinRoom(room));
    await(alice2.joinRoom(aside)); // another room: updates of all her rooms still arrive
    RecordingHandler<Message> a1 = record(alice1, EventType.MESSAGE_UPDATED);
    RecordingHandler<Message> a2 = record(alice2, EventType.MESSAGE_UPDATED);
    RecordingHandler<Message> b = record(bob, EventType.MESSAGE_UPDATED);
    RecordingHandler<Message> c = record(carol, EventType.MESSAGE_UPDATED);
    RecordingHandler<Message> carolNew = record(carol, EventType.NEW_MESSAGE);

    Message sent = await(alice1.sendText(room, "helo"));
    clock.advance(Duration.ofSeconds(2));
    Message edited = await(alice2.updateMessage(room, sent.id(), List.of(MessagePart.text("hello"))));
    assertEquals("hello", edited.text());
    assertEquals(Long.valueOf(Instant.parse("2026-11-21T10:00:02Z").toEpochMilli()), edited.editedAt());
    for (RecordingHandler<Message> h : List.of(a1, a2, b)) assertEquals(edited, h.next(WAIT));

    Message reacted = await(bob.toggleReaction(room, sent.id(), "👍"));
    assertEquals(List.of("bob"), reacted.reactions().get("👍"));
    for (RecordingHandler<Message> h : List.of(a1, a2, b)) assertEquals(reacted, h.next(WAIT));

    assertEquals("forbidden", apiError(bob.updateMessage(room, sent.id(), List.of(MessagePart.text("x")))).code());
    assertEquals("forbidden", apiError(bob.deleteMessage(room, sent.id())).code());
    assertEquals(403, apiError(carol.toggleReaction(room, sent.id(), "👍")).status());

    Message deleted = await(alice1.deleteMessage(room, sent.id()));
    assertTrue(deleted.isDeleted());
    assertTrue(deleted.parts().isEmpty());
    for (RecordingHandler<Message> h : List.of(a1, a2, b)) assertEquals(deleted, h.next(WAIT));
    ApiException conflict = apiError(alice1.updateMessage(room, sent.id(), List.of(MessagePart.text("again"))));
    assertEquals(409, conflict.status());
    assertEquals("conflict", conflict.code());
    assertEquals("conflict", apiError(bob.toggleReaction(room, sent.id(), "👍")).code());

    // negative: carol (not a member) saw none of the three updates; the marker proves delivery caught up
    Message marker = await(alice1.sendText(aside, "marker"));
    assertEquals(marker.id(), carolNew.next(WAIT).id());
    c.assertNoMore();
    a1.assertNoMore();
  }

  @Test
  void typingGoesOnlyToConnectionsThatJoinedTheRoomAndNeverToTheTypersOwn() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    String other = admin.createRoom("other", "bob");
    ChatClient alice1 = chat.connected("alice");
    ChatClient alice2 = chat.connected("alice");
    ChatClient bob1 = chat.connected("bob");
    ChatClient bob2 = chat.connected("bob");
    await(alice1.joinRoom(room));
    await(alice2.joinRoom(room));
    await(bob1.joinRoom(room));
    await(bob2.joinRoom(other)); // bob's second device has another room joined
    RecordingHandler<TypingEvent> a1 = record(alice1, EventType.TYPING);
    RecordingHandler<TypingEvent> a2 = record(alice2, EventType.TYPING);
    RecordingHandler<TypingEvent> b1 = record(bob1, EventType.TYPING);
    RecordingHandler<TypingEvent> b2 = record(bob2, EventType.TYPING);

    await(alice1.setTyping(room, true));
    assertEquals(TypingEvent.of(room, "alice", true), b1.next(WAIT));

    // bob types; alice's both connections get it, and it is the first typing event each of them sees:
    // neither got alice's own typing (the typer's connections never do)
    await(bob1.setTyping(room, true));
    assertEquals(TypingEvent.of(room, "bob", true), a1.next(WAIT));
    assertEquals(TypingEvent.of(room, "bob", true), a2.next(WAIT));

    // typing applies only to the joined room
    ApiException notJoined = apiError(bob2.setTyping(room, true));
    assertEquals(400, notJoined.status());
    assertEquals("bad_request", notJoined.code());

    // negative: bob2 (room not joined) got nothing; once it joins, alice's next typing is its first event
    await(bob2.joinRoom(room));
    await(alice2.setTyping(room, false));
    assertEquals(TypingEvent.of(room, "alice", false), b2.next(WAIT));
    assertEquals(TypingEvent.of(room, "alice", false), b1.next(WAIT));
    a1.assertNoMore();
    b1.assertNoMore();
  }

  @Test
  void aRemovedMemberStopsGettingTypingOfTheRoomItHadJoined() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    String marker = admin.createRoom("marker", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    await(alice.joinRoom(room));
    await(bob.joinRoom(room));
    RecordingHandler<TypingEvent> bobTyping = record(bob, EventType.TYPING);
    RecordingHandler<Message> bobNew = record(bob, EventType.NEW_MESSAGE);
    await(alice.setTyping(room, true));
    assertEquals("alice", bobTyping.next(WAIT).userId());

    Admin.Answer removed = admin.call("DELETE", "/v1/chat/rooms/" + room + "/members/bob", null, admin.apiKeyHeader());
    assertEquals(200, removed.status());
    await(alice.setTyping(room, false));
    Message m = await(alice.sendText(marker, "after removal"));
    assertEquals(m.id(), bobNew.next(WAIT).id());
    bobTyping.assertNoMore();
    // the server no longer counts the room as joined by bob's connection
    assertEquals("bad_request", apiError(bob.setTyping(room, true)).code());
  }

  @Test
  void presenceFlipsOnAUsersFirstConnectionAndAfterTheirLastAndApiKeysCauseNone() throws Exception {
    ChatClient observer = chat.connected("observer");
    RecordingHandler<PresenceEvent> seen = record(observer, EventType.TENANT_PRESENCE);

    ChatClient dave1 = chat.connected("dave");
    PresenceEvent online = seen.next(WAIT);
    assertEquals("dave", online.userId());
    assertTrue(online.isOnline());
    assertEquals(Instant.parse("2026-11-21T10:00:00Z").toEpochMilli(), online.at());
    assertEquals(List.of("dave", "observer"), await(observer.getPresence()));

    ChatClient dave2 = chat.connected("dave");  // a second device: no event
    await(dave1.disconnect());                  // one device left: still online, no event
    assertEquals(List.of("dave", "observer"), await(observer.getPresence()));

    // negative: an API-key connection is nobody and causes no presence
    try (ApiKeySocket bot = ApiKeySocket.connect(chat.server().socketUrl(), chat.server().apiKey())) {
      assertEquals(List.of("dave", "observer"), await(observer.getPresence()));
    }

    clock.advance(Duration.ofSeconds(5));
    await(dave2.disconnect());
    PresenceEvent offline = seen.next(WAIT);
    assertEquals(PresenceEvent.of("dave", false, Instant.parse("2026-11-21T10:00:05Z").toEpochMilli()), offline);
    assertEquals(List.of("observer"), await(observer.getPresence()));

    // the marker: erin's first connection is the next event; nothing came from dave2, dave1 or the bot
    chat.connected("erin");
    assertEquals(PresenceEvent.of("erin", true, Instant.parse("2026-11-21T10:00:05Z").toEpochMilli()), seen.next(WAIT));
    seen.assertNoMore();
  }

  @Test
  void roomReadGoesToEveryMembersConnectionsAndNeverMovesBackwards() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    String aside = admin.createRoom("aside", "alice", "carol");
    ChatClient alice1 = chat.connected("alice");
    ChatClient alice2 = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    ChatClient carol = chat.connected("carol");
    RecordingHandler<Receipt> a1 = record(alice1, EventType.ROOM_READ);
    RecordingHandler<Receipt> a2 = record(alice2, EventType.ROOM_READ);
    RecordingHandler<Receipt> b = record(bob, EventType.ROOM_READ);
    RecordingHandler<Receipt> c = record(carol, EventType.ROOM_READ);
    Message m1 = await(alice1.sendText(room, "one"));
    Message m2 = await(alice1.sendText(room, "two"));
    Message m3 = await(alice1.sendText(room, "three"));

    Receipt receipt = await(bob.markRead(room, m2.id()));
    assertEquals(room, receipt.roomId());
    assertEquals("bob", receipt.userId());
    assertEquals(m2.id(), receipt.messageId());
    assertEquals(2, receipt.seq());
    for (RecordingHandler<Receipt> h : List.of(a1, a2, b)) assertEquals(receipt, h.next(WAIT));

    // an older message answers the current receipt and notifies nobody
    assertEquals(receipt, await(bob.markRead(room, m1.id())));
    Receipt third = await(bob.markRead(room, m3.id()));
    assertEquals(3, third.seq());
    for (RecordingHandler<Receipt> h : List.of(a1, a2, b)) assertEquals(third, h.next(WAIT));

    // negative: carol is not a member; her next receipt event is one of her own room
    assertEquals(403, apiError(carol.markRead(room, m1.id())).status());
    Message inAside = await(alice1.sendText(aside, "hi carol"));
    Receipt carolReads = await(carol.markRead(aside, inAside.id()));
    assertEquals(carolReads, c.next(WAIT));
    c.assertNoMore();
    assertEquals(carolReads, a1.next(WAIT)); // alice is a member of aside too
    b.assertNoMore();
  }
}
