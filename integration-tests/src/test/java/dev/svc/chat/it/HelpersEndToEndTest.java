package dev.svc.chat.it;

import dev.svc.chat.testkit.VirtualClock;
import static dev.svc.chat.it.Futures.WAIT;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ComposerTypingController;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessageLists;
import dev.svc.chat.MessagePart;
import dev.svc.chat.RoomSubscription;
import dev.svc.chat.RoomSubscriptionListener;
import dev.svc.chat.Svc;
import dev.svc.chat.TenantPresenceListener;
import dev.svc.chat.TenantPresenceTracker;
import dev.svc.chat.TypingEvent;
import dev.svc.chat.reference.ReferenceServer;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The SDK's helpers against the reference server: room subscription, typing controller, presence tracker. */
class HelpersEndToEndTest {
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

  private static <T> T take(BlockingQueue<T> queue) throws InterruptedException {
    T value = queue.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    if (value == null) throw new AssertionError("nothing within " + WAIT);
    return value;
  }

  @Test
  void roomSubscriptionKeepsAMessageListRightWithAnOptimisticSend() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    await(alice.sendText(room, "one"));
    await(alice.sendText(room, "two"));

    // bob subscribes before connecting: the subscription waits for the connection
    ChatClient bob = chat.newClient();
    BlockingQueue<List<Message>> lists = new LinkedBlockingQueue<>();
    AtomicReference<List<Message>> shown = new AtomicReference<>(Collections.<Message>emptyList());
    RoomSubscription sub = Svc.createRoomSubscription(bob, room, "bob", new RoomSubscriptionListener() {
      @Override
      public void onInitialMessages(List<Message> messages) {
        lists.add(shown.updateAndGet(current -> MessageLists.mergeMessagesById(current, messages)));
      }

      @Override
      public void onMessage(Message message) {
        lists.add(shown.updateAndGet(current -> MessageLists.mergeMessagesById(current, List.of(message))));
      }

      @Override
      public void onMessageUpdated(Message message) {
        onMessage(message);
      }
    });
    await(bob.connect("bob", admin.mint("bob")));
    assertEquals(List.of("one", "two"), texts(take(lists)));

    // bob sends with an optimistic copy; the echo and the REST answer both settle it into one message
    String clientId = UUID.randomUUID().toString();
    List<MessagePart> parts = List.of(MessagePart.text("three"));
    Message pending = MessageLists.pendingMessage(room, "bob", clientId, parts, System.currentTimeMillis());
    Message stored = await(bob.sendMessage(room, parts, clientId));
    List<Message> afterEcho = take(lists);
    assertEquals(List.of("one", "two", "three"), texts(afterEcho));
    List<Message> reconciled = MessageLists.reconcileSelfSentMessage(
        MessageLists.mergeMessagesById(afterEcho, List.of(pending)), stored);
    assertEquals(List.of(1L, 2L, 3L), reconciled.stream().map(Message::seq).toList());

    Message edited = await(alice.updateMessage(room, reconciled.get(0).id(), List.of(MessagePart.text("ONE"))));
    assertEquals(List.of("ONE", "two", "three"), texts(take(lists)));
    assertEquals(edited, shown.get().get(0));

    sub.destroy();
    // a handler added after the subscription's sees the next message after the subscription would have
    BlockingQueue<Message> later = new LinkedBlockingQueue<>();
    bob.on(EventType.NEW_MESSAGE, later::add);
    await(alice.sendText(room, "after destroy"));
    assertEquals("after destroy", take(later).text());
    assertEquals(null, lists.poll(), "the destroyed subscription still updated the list");
  }

  private static List<String> texts(List<Message> messages) {
    return messages.stream().map(Message::text).toList();
  }

  @Test
  void typingControllerDrivesTheGateway() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    ChatClient alice = chat.connected("alice");
    ChatClient bob = chat.connected("bob");
    await(alice.joinRoom(room));
    await(bob.joinRoom(room));
    RecordingHandler<TypingEvent> bobSees = new RecordingHandler<>();
    bob.on(EventType.TYPING, bobSees);
    try (ComposerTypingController typing = ComposerTypingController.create(alice, room)) {
      typing.onInput("h");
      typing.onInput("he");
      assertEquals(TypingEvent.of(room, "alice", true), bobSees.next(WAIT));
      typing.onSend();
      assertEquals(TypingEvent.of(room, "alice", false), bobSees.next(WAIT));
    }
    bobSees.assertNoMore();
    // typing is ephemeral: not queued while disconnected
    await(alice.disconnect());
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(alice.setTyping(room, true)));
    assertInstanceOf(ChatStateException.class, e.getCause());
  }

  @Test
  void presenceTrackerFollowsUsersComingAndGoing() throws Exception {
    ChatClient observer = chat.connected("observer");
    BlockingQueue<Set<String>> changes = new LinkedBlockingQueue<>();
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(observer, new TenantPresenceListener() {
      @Override
      public void onChange(Set<String> online) {
        changes.add(online);
      }
    });
    assertEquals(Set.of("observer"), take(changes));
    ChatClient dave = chat.connected("dave");
    assertEquals(Set.of("observer", "dave"), take(changes));
    await(dave.disconnect());
    assertEquals(Set.of("observer"), take(changes));
    assertTrue(tracker.isReady());
    tracker.destroy();
  }
}
