package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.apiError;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.MentionText;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.ReconnectSettings;
import dev.svc.chat.RoomList;
import dev.svc.chat.SendOptions;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.ThreadSubscription;
import dev.svc.chat.ThreadSubscriptionListener;
import dev.svc.chat.ThreadSummary;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replies, threads and mentions (contract section 10) through the SDK against the reference server: the typed
 * fields, the thread and main-timeline queries, a {@link ThreadSubscription}, and a root's summary recovered
 * exactly after replies sent and deleted while the client was cut off, with and without a store.
 */
class ThreadsEndToEndTest {
  @TempDir Path dir;
  private ChatFixture chat;
  private FaultProxy proxy;
  private String room;
  private ChatClient bob;

  @BeforeEach
  void start() throws Exception {
    chat = new ChatFixture(ReferenceServer.builder().port(0));
    proxy = FaultProxy.start("127.0.0.1", chat.server().port());
    room = chat.admin().createRoom("general", "alice", "bob", "cy");
    bob = chat.connected("bob");
  }

  @AfterEach
  void stop() {
    try {
      chat.close();
    } finally {
      proxy.close();
    }
  }

  private static List<MessagePart> text(String text) {
    return List.of(MessagePart.text(text));
  }

  /** Alice through the fault proxy, with a store when {@code store} names one. */
  private ChatClient alice(String store) throws Exception {
    SvcOptions.Builder options = SvcOptions.builder(proxy.apiUrl()).reconnect(ReconnectSettings.development());
    if (store != null) options.store(SqliteChatStore.provider(dir.resolve(store).toFile()));
    ChatClient alice = chat.newClient(options.build());
    await(alice.connect("alice", chat.admin().mint("alice")));
    return alice;
  }

  @Test
  void aReplyAThreadAndMentionsCarryTheirFieldsAndQueries() throws Exception {
    ChatClient alice = alice(null);
    RecordingHandler<Message> updates = ChatFixture.record(alice, EventType.MESSAGE_UPDATED);
    Message root = await(alice.sendText(room, "deploy today?"));
    MentionText typed = MentionText.parse("@alice yes, @cy checks", List.of("alice", "bob", "cy"));
    Message quote = await(bob.sendMessage(room, typed.parts(), typed.options().replyToId(root.id()).build()));
    assertEquals(root.id(), quote.replyToId());
    assertNull(quote.threadId());
    assertEquals(List.of("alice", "cy"), quote.mentions());
    assertEquals("@alice yes, @cy checks", quote.text());

    Message r1 = await(bob.sendMessage(room, text("in thread"), SendOptions.inThread(root.id())));
    Message r2 = await(alice.sendMessage(room, text("me too"), SendOptions.inThread(root.id())));
    assertEquals(root.id(), r1.threadId());
    Message summarised = updates.next(m -> m.id().equals(root.id()) && m.thread() != null
        && m.thread().replyCount() == 2);
    assertEquals(List.of("alice", "bob"), summarised.thread().participantIds());
    assertEquals(r2.createdAt(), summarised.thread().lastReplyAt().longValue());
    assertEquals(summarised, await(alice.getMessage(room, root.id())), "the event is the service's root");

    List<Message> thread = await(alice.getMessages(room, MessageQuery.latest(10).inThread(root.id()))).messages();
    assertEquals(List.of(r1.id(), r2.id()), ids(thread));
    List<Message> main = await(alice.getMessages(room, MessageQuery.latest(10).mainTimeline())).messages();
    assertEquals(List.of(root.id(), quote.id()), ids(main));
    assertEquals(4, await(alice.getMessages(room)).messages().size(), "thread replies are room messages too");
  }

  @Test
  void badLinksAndMentionsAreRefusedAndDeletedOnesStayReadable() throws Exception {
    ChatClient alice = alice(null);
    String other = chat.admin().createRoom("other", "alice", "bob");
    Message elsewhere = await(alice.sendText(other, "elsewhere"));
    Message root = await(alice.sendText(room, "root"));
    Message reply = await(bob.sendMessage(room, text("r"), SendOptions.inThread(root.id())));

    assertEquals(400, apiError(alice.sendMessage(room, text("x"), SendOptions.replyTo(elsewhere.id()))).status());
    assertEquals(400, apiError(alice.sendMessage(room, text("x"), SendOptions.inThread(elsewhere.id()))).status());
    assertEquals(400, apiError(alice.sendMessage(room, text("x"), SendOptions.inThread(reply.id()))).status(),
        "a thread reply is no root");
    assertEquals(400, apiError(alice.sendMessage(room, text("x"),
        SendOptions.builder().mentions(List.of("mallory")).build())).status(), "a non-member");
    assertEquals("not_found", apiError(alice.getMessage(room, "no-such-message")).code());

    // a reply to a deleted message is sent and shows its quote as a tombstone
    Message gone = await(bob.sendText(room, "soon gone"));
    await(bob.deleteMessage(room, gone.id()));
    Message answer = await(alice.sendMessage(room, text("what was it?"), SendOptions.replyTo(gone.id())));
    assertEquals(gone.id(), answer.replyToId());
    assertTrue(await(alice.getMessage(room, answer.replyToId())).isDeleted());

    // a deleted root keeps its reply and its summary, and takes no new reply
    await(alice.deleteMessage(room, root.id()));
    Message deletedRoot = await(bob.getMessage(room, root.id()));
    assertTrue(deletedRoot.isDeleted());
    assertEquals(1, deletedRoot.thread().replyCount());
    assertEquals(List.of(reply.id()),
        ids(await(bob.getMessages(room, MessageQuery.latest(10).inThread(root.id()))).messages()));
    assertEquals("conflict", apiError(bob.sendMessage(room, text("late"), SendOptions.inThread(root.id()))).code());
  }

  @Test
  void aThreadSubscriptionGetsHistoryThenLiveRepliesAndTheRootsSummary() throws Exception {
    ChatClient alice = alice(null);
    Message root = await(alice.sendText(room, "root"));
    Message first = await(bob.sendMessage(room, text("first"), SendOptions.inThread(root.id())));
    await(bob.sendText(room, "not in the thread"));
    Recorder seen = new Recorder();
    ThreadSubscription sub = Svc.createThreadSubscription(alice, room, root.id(), seen);
    try {
      seen.next(e -> e.startsWith("initial"));
      assertEquals("initial " + root.id() + " 1 [" + first.id() + "]", seen.all().get(0));
      Message second = await(bob.sendMessage(room, text("second"), SendOptions.inThread(root.id())));
      seen.next(e -> e.equals("reply " + second.id()));
      seen.next(e -> e.equals("root " + root.id() + " 2"));
      await(bob.deleteMessage(room, first.id()));
      seen.next(e -> e.equals("replyUpdated " + first.id() + " deleted"));
      seen.next(e -> e.equals("root " + root.id() + " 1"));
      for (String e : seen.all()) assertTrue(!e.contains("not in the thread"), e);
    } finally {
      sub.destroy();
    }
  }

  @Test
  void repliesWhileCutOffAreRecoveredWithTheRootsExactSummary() throws Exception {
    recoversTheSummaryAcrossACut(null);
  }

  @Test
  void repliesWhileCutOffAreRecoveredIntoTheStoreAndSurviveARestart() throws Exception {
    Message root = recoversTheSummaryAcrossACut("store");
    ThreadSummary truth = await(bob.getMessage(room, root.id())).thread();
    ChatClient restarted = chat.newClient(SvcOptions.builder(proxy.apiUrl())
        .store(SqliteChatStore.provider(dir.resolve("store").toFile())).build());
    await(restarted.openOffline("alice"));
    Message stored = null;
    for (Message m : await(restarted.getMessages(room)).messages()) {
      if (m.id().equals(root.id())) stored = m;
    }
    assertNotNull(stored, "the root is in the store");
    assertEquals(truth, stored.thread(), "the stored root carries the recovered summary");
  }

  private Message recoversTheSummaryAcrossACut(String store) throws Exception {
    ChatClient alice = alice(store);
    RecordingHandler<Message> updates = ChatFixture.record(alice, EventType.MESSAGE_UPDATED);
    RecordingHandler<ConnectionStateChange> states = ChatFixture.record(alice, EventType.CONNECTION_STATE);
    Message root = await(alice.sendText(room, "root"));
    await(bob.sendMessage(room, text("before"), SendOptions.inThread(root.id())));
    updates.next(m -> m.id().equals(root.id()) && m.thread() != null && m.thread().replyCount() == 1);

    proxy.refuseNew(true);
    proxy.cutAll();
    states.next(s -> s.current() == ConnectionState.RECONNECTING);
    Message a = await(bob.sendMessage(room, text("a"), SendOptions.inThread(root.id())));
    ChatClient cy = chat.connected("cy");
    await(cy.sendMessage(room, text("b @alice"), SendOptions.builder().threadId(root.id())
        .mentions(List.of("alice")).build()));
    await(bob.sendMessage(room, text("c"), SendOptions.inThread(root.id())));
    await(bob.deleteMessage(room, a.id()));
    ThreadSummary truth = await(bob.getMessage(room, root.id())).thread();
    assertEquals(3, truth.replyCount());
    assertEquals(List.of("bob", "cy"), truth.participantIds());
    proxy.refuseNew(false);

    Message recovered = updates.next(m -> m.id().equals(root.id()) && truth.equals(m.thread()));
    assertEquals(await(bob.getMessage(room, root.id())), recovered, "the recovered root is the service's");
    return root;
  }

  @Test
  void unreadMentionsAreExactOnEveryDeviceAndAfterARestart() throws Exception {
    ChatClient phone = alice("phone");
    ChatClient laptop = alice(null);
    RecordingHandler<RoomList> phoneLists = new RecordingHandler<>();
    RecordingHandler<RoomList> laptopLists = new RecordingHandler<>();
    phone.roomList(phoneLists);
    laptop.roomList(laptopLists);
    SendOptions mentionAlice = SendOptions.builder().mentions(List.of("alice")).build();
    Message first = await(bob.sendMessage(room, text("@alice one"), mentionAlice));
    await(bob.sendText(room, "no mention"));
    Message edited = await(bob.sendMessage(room, text("@alice two"), mentionAlice));
    Message last = await(bob.sendMessage(room, text("@alice three"), mentionAlice));
    await(bob.updateMessage(room, edited.id(), text("two"), List.of())); // the mention dropped
    for (RecordingHandler<RoomList> lists : List.of(phoneLists, laptopLists)) {
      lists.next(l -> l.room(room) != null && l.room(room).unreadCount() == 4 && l.room(room).unreadMentions() == 2);
    }
    await(laptop.markRead(room, first.id())); // read on the laptop: the phone follows (room-read)
    phoneLists.next(l -> l.room(room).unreadCount() == 3 && l.room(room).unreadMentions() == 1);
    phone.close();

    ChatClient restarted = chat.newClient(SvcOptions.builder(proxy.apiUrl())
        .store(SqliteChatStore.provider(dir.resolve("phone").toFile())).build());
    RecordingHandler<RoomList> offline = new RecordingHandler<>();
    restarted.roomList(offline);
    await(restarted.openOffline("alice"));
    RoomList fromStore = offline.next(l -> l.room(room) != null);
    assertEquals(1, fromStore.room(room).unreadMentions(), "from the store, offline: " + fromStore.room(room));
    assertEquals(last.id(), fromStore.room(room).lastMessage().id());
  }

  private static List<String> ids(List<Message> messages) {
    List<String> ids = new ArrayList<>();
    for (Message m : messages) ids.add(m.id());
    return ids;
  }

  /** Records a thread subscription's calls as lines. */
  private static final class Recorder implements ThreadSubscriptionListener {
    private final RecordingHandler<String> lines = new RecordingHandler<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();

    @Override
    public void onInitialReplies(Message root, List<Message> replies) {
      lines.onEvent("initial " + root.id() + " " + replies.size() + " " + ids(replies));
    }

    @Override
    public void onReply(Message reply) {
      lines.onEvent("reply " + reply.id());
    }

    @Override
    public void onReplyUpdated(Message reply) {
      lines.onEvent("replyUpdated " + reply.id() + (reply.isDeleted() ? " deleted" : ""));
    }

    @Override
    public void onRootUpdated(Message root) {
      lines.onEvent("root " + root.id() + " " + (root.thread() == null ? "-" : root.thread().replyCount()));
    }

    @Override
    public void onError(Throwable error) {
      errors.add(String.valueOf(error));
      lines.onEvent("error " + error);
    }

    String next(java.util.function.Predicate<String> matcher) throws InterruptedException {
      return lines.next(matcher);
    }

    List<String> all() {
      return lines.all();
    }
  }
}
