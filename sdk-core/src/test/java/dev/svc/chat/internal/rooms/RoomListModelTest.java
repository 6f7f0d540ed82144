package dev.svc.chat.internal.rooms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ChangesPage;
import dev.svc.chat.ChatLogger;
import dev.svc.chat.Message;
import dev.svc.chat.MessageLinks;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSummary;
import dev.svc.chat.internal.realtime.ReconnectPolicy;
import dev.svc.chat.internal.recovery.RecoverySource;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.SerialScheduler;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The room list's unread rule, case by case, and its snapshots. */
class RoomListModelTest {
  private static final Log LOG = new Log(ChatLogger.NONE);
  private final ArrayDeque<Runnable> actorTasks = new ArrayDeque<>();
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private final Service service = new Service();
  private final List<RoomList> snapshots = new ArrayList<>();
  private RoomListModel model;

  @BeforeEach
  void setUp() {
    SerialScheduler actor = new SerialScheduler(actorTasks::add, time, LOG);
    model = new RoomListModel(actor, CallbackExecutor.on(Runnable::run, LOG), 5, LOG);
    new UnreadFill(actor, service, new ReconnectPolicy(100, 1_000, new Random(1)), LOG).attach(model);
    model.user("me");
  }

  private void run() {
    while (!actorTasks.isEmpty()) actorTasks.poll().run();
  }

  private RoomList latest() {
    return snapshots.get(snapshots.size() - 1);
  }

  private int unread(String roomId) {
    return latest().room(roomId).unreadCount();
  }

  /** Subscribes; the first subscription lists the rooms and fills their counts. */
  private void subscribe() {
    model.subscribe(snapshots::add, () -> {
      for (Room r : service.list()) model.listed(r);
      model.listingDone(false);
    });
    run();
  }

  /** A message delivered live (as recovery hands it over). */
  private Message live(String roomId, String sender) {
    Message m = service.post(roomId, sender);
    model.delivered(m, m.seq(), m.rev());
    return m;
  }

  @Test
  void countsMessagesOfOthersAboveTheUsersReceiptReadFromTheServiceAtStart() {
    service.post("r1", "bob");
    service.post("r1", "bob");
    service.post("r1", "me");
    service.post("r1", "bob");
    service.read("r1", "me", 1);
    subscribe();
    assertEquals(2, unread("r1"), "bob's #2 and #4: #1 was read, #3 is the user's own");
    assertFalse(latest().room("r1").unreadCapped());
  }

  @Test
  void theAppsOwnSendsAreNeverUnread() {
    subscribe();
    live("r1", "bob");
    model.message(service.post("r1", "me")); // the send's answer
    live("r1", "me"); // and its event
    run();
    assertEquals(1, unread("r1"));
    assertEquals("me", latest().room("r1").lastMessage().senderId(), "the send is the room's last message");
  }

  @Test
  void aReadOnAnotherDeviceLowersTheCount() {
    subscribe();
    live("r1", "bob");
    Message second = live("r1", "bob");
    live("r1", "bob");
    run();
    assertEquals(3, unread("r1"));
    model.receipt(Receipt.of("r1", "me", second.id(), second.seq(), 5)); // room-read of the user's other device
    run();
    assertEquals(1, unread("r1"));
    model.receipt(Receipt.of("r1", "bob", second.id(), 3, 5)); // another user's receipt changes nothing
    run();
    assertEquals(1, unread("r1"));
  }

  @Test
  void markReadLowersTheCountAtOnceAndAReceiptNeverMovesBack() {
    subscribe();
    live("r1", "bob");
    Message second = live("r1", "bob");
    Message third = live("r1", "bob");
    model.markedRead("r1", third.id()); // offline: no answer yet
    run();
    assertEquals(0, unread("r1"));
    model.receipt(Receipt.of("r1", "me", second.id(), second.seq(), 5)); // an older read arriving late
    run();
    assertEquals(0, unread("r1"), "never backwards");
    assertEquals(third.seq(), model.tally("r1").readSeq, "the receipt stays at the newest read");
  }

  @Test
  void aDeletedMessageLeavesTheCountAndTheLastMessageColumn() {
    subscribe();
    live("r1", "bob");
    Message second = live("r1", "bob");
    run();
    assertEquals(2, unread("r1"));
    Message deleted = second.newBuilder().rev(second.rev() + 10).deletedAt(9L).parts(Collections.<MessagePart>emptyList())
        .build();
    model.delivered(deleted, 2, deleted.rev());
    run();
    assertEquals(1, unread("r1"));
    assertEquals(1, latest().room("r1").lastMessage().seq(), "the newest visible message");
  }

  @Test
  void aMessageDeletedWhileItsFillPageIsInFlightIsNotCounted() {
    service.post("r1", "bob");
    Message second = service.post("r1", "bob");
    service.post("r1", "bob");
    service.holdPages = true;
    subscribe(); // the listing starts the fill: the receipts, then a page read before the delete, held
    assertEquals(1, service.held.size(), "the fill's page is in flight");
    Message deleted = second.newBuilder().rev(10).deletedAt(9L).parts(Collections.<MessagePart>emptyList()).build();
    model.delivered(deleted, 3, deleted.rev()); // the delete's event overtakes the page
    run();
    service.held.poll().run(); // the page answers, #2 in it as it was when read
    run();
    assertEquals(2, unread("r1"), "#1 and #3: #2 was deleted");
  }

  @Test
  void aRoomWithMoreUnreadThanTheCapIsCappedAndFlagged() {
    for (int i = 0; i < 12; i++) service.post("r1", "bob");
    subscribe();
    RoomSummary r1 = latest().room("r1");
    assertEquals(5, r1.unreadCount());
    assertTrue(r1.unreadCapped());
    assertTrue(latest().totalCapped());
    assertTrue(service.reads <= 3, "reads about the cap, not the room's whole history: " + service.reads);
  }

  @Test
  void theListIsSortedByLastActivityWithATotalAndABurstGivesOneSnapshot() {
    service.post("r1", "bob");
    service.post("r2", "bob");
    subscribe();
    int before = snapshots.size();
    for (int i = 0; i < 3; i++) live("r1", "bob"); // one burst, in one actor turn
    run();
    assertEquals(before + 1, snapshots.size(), "one snapshot per burst");
    assertEquals(Arrays.asList("r1", "r2"), ids(latest()));
    assertEquals(5, latest().totalUnread());
    live("r2", "carol");
    run();
    assertEquals(Arrays.asList("r2", "r1"), ids(latest()));
  }

  @Test
  void afterARestartWithoutTheNetworkTheCountsComeFromTheStoreAtOnce() {
    model.follow(); // a client with a store
    List<Message> history = new ArrayList<>();
    for (int i = 0; i < 5; i++) history.add(service.post("r1", i == 3 ? "me" : "bob")); // #4 is the user's own
    Room r1 = service.list().get(0);
    dev.svc.chat.store.StoredState state = new dev.svc.chat.store.StoredState(
        Collections.singletonList(new dev.svc.chat.store.StoredRoom(r1, 5, 5)),
        Collections.singletonList(Receipt.of("r1", "me", "r1-2", 2, 1)), Collections.<Message>emptyList(),
        Collections.<dev.svc.chat.store.StoredSend>emptyList(), 99);
    dev.svc.chat.store.RoomDigest digest = new dev.svc.chat.store.RoomDigest(1, history.subList(1, 5),
        Arrays.asList(history.get(2), history.get(4)));
    service.rooms.clear(); // the service is out of reach: nothing may be read from it
    model.restore(state, Collections.singletonMap("r1", digest));
    model.subscribe(snapshots::add, () -> { throw new AssertionError("no listing while the store answers"); });
    run();
    assertEquals(1, snapshots.size());
    assertTrue(latest().fromStore());
    assertEquals(2, unread("r1"), "#3 and #5 of bob above the receipt at 2; #4 is the user's own");
    assertEquals(5, latest().room("r1").lastMessage().seq());
    assertEquals(0, service.reads, "exact from the store: nothing read");
  }

  /** Posts a message of {@code sender} that mentions {@code mentioned}. */
  private Message mentioning(String roomId, String sender, String... mentioned) {
    Message m = service.post(roomId, sender).newBuilder()
        .links(MessageLinks.builder().mentions(Arrays.asList(mentioned)).build()).build();
    List<Message> list = service.rooms.get(roomId);
    list.set(list.size() - 1, m);
    return m;
  }

  private int mentions(String roomId) {
    return latest().room(roomId).unreadMentions();
  }

  @Test
  void unreadMentionsFollowTheUnreadRuleLiveAndFromTheFill() {
    mentioning("r1", "bob", "me"); // #1, read below
    mentioning("r1", "bob", "me", "carol"); // #2
    mentioning("r1", "bob", "carol"); // #3: not the user
    mentioning("r1", "me", "me"); // #4: the user's own
    service.read("r1", "me", 1);
    subscribe();
    assertEquals(2, unread("r1"));
    assertEquals(1, mentions("r1"), "the fill counts #2 only");

    Message live = mentioning("r1", "carol", "me");
    model.delivered(live, live.seq(), live.rev());
    run();
    assertEquals(2, mentions("r1"));
    // an edit that drops the mention, then one that adds it back
    Message dropped = live.newBuilder().rev(20).links(MessageLinks.none()).editedAt(20L).build();
    model.delivered(dropped, live.seq(), dropped.rev());
    run();
    assertEquals(1, mentions("r1"));
    assertEquals(3, unread("r1"), "still unread");
    Message back = dropped.newBuilder().rev(21)
        .links(MessageLinks.builder().mentions(Collections.singletonList("me")).build()).build();
    model.delivered(back, live.seq(), back.rev());
    run();
    assertEquals(2, mentions("r1"));
    // a delete leaves the count, a read on another device lowers it
    Message deleted = back.newBuilder().rev(22).deletedAt(22L).parts(Collections.<MessagePart>emptyList())
        .links(MessageLinks.none()).build();
    model.delivered(deleted, live.seq(), deleted.rev());
    run();
    assertEquals(1, mentions("r1"));
    model.receipt(Receipt.of("r1", "me", "r1-2", 2, 5));
    run();
    assertEquals(0, mentions("r1"));
    assertEquals(1, unread("r1"), "#3 stays unread, without a mention");
  }

  @Test
  void unreadMentionsComeFromTheStoreOffline() {
    model.follow();
    List<Message> history = new ArrayList<>();
    history.add(mentioning("r1", "bob", "me"));
    history.add(mentioning("r1", "bob", "me"));
    history.add(mentioning("r1", "bob"));
    Room r1 = service.list().get(0);
    dev.svc.chat.store.StoredState state = new dev.svc.chat.store.StoredState(
        Collections.singletonList(new dev.svc.chat.store.StoredRoom(r1, 3, 3)),
        Collections.singletonList(Receipt.of("r1", "me", "r1-1", 1, 1)), Collections.<Message>emptyList(),
        Collections.<dev.svc.chat.store.StoredSend>emptyList(), 99);
    dev.svc.chat.store.RoomDigest digest = new dev.svc.chat.store.RoomDigest(1, history, history.subList(1, 3));
    service.rooms.clear();
    model.restore(state, Collections.singletonMap("r1", digest));
    model.subscribe(snapshots::add, () -> { throw new AssertionError("no listing while the store answers"); });
    run();
    assertEquals(2, unread("r1"));
    assertEquals(1, mentions("r1"), "#2 mentions the user above the receipt at 1");
  }

  /** The rooms listed again, as recovery lists them at each connect: nothing changed at the service. */
  private void relist(boolean fromStore) {
    for (Room r : service.list()) model.listed(r);
    model.listingDone(fromStore);
    run();
  }

  @Test
  void oneSnapshotPerChangeOnConnectAndReconnect() {
    service.post("r1", "bob");
    service.post("r1", "bob");
    service.post("r2", "bob");
    subscribe(); // the app's subscription lists the rooms, the fill counts them
    relist(false); // the connect's recovery lists them again
    // two changes: the rooms listed, then their counts read (the fill's requests come after the listing)
    assertEquals(2, snapshots.size(), "connect: " + snapshots);
    assertEquals(3, latest().totalUnread());
    relist(false); // a reconnect's recovery
    assertEquals(2, snapshots.size(), "reconnect: " + snapshots);
    live("r1", "bob");
    run();
    assertEquals(3, snapshots.size(), "a message is a change");
    relist(false); // a reconnect after it: the room followed the message, so the listing finds it as it is
    assertEquals(3, snapshots.size(), "reconnect after a message: " + snapshots);
    assertEquals(3, latest().room("r1").room().lastMessageSeq());
    List<Room> before = service.list(); // a listing asked before the next message, answered after it
    live("r1", "bob");
    run();
    for (Room r : before) model.listed(r);
    model.listingDone(false);
    run();
    assertEquals(4, snapshots.size(), "an older listing moves nothing back: " + snapshots);
    assertEquals(4, latest().room("r1").room().lastMessageSeq());
    // a second subscriber gets the current snapshot once, even with an emission pending for the first
    List<RoomList> second = new ArrayList<>();
    live("r2", "bob");
    model.subscribe(second::add, () -> { throw new AssertionError("listed already"); });
    run();
    assertEquals(5, snapshots.size());
    assertEquals(1, second.size(), "the second subscriber: " + second);
  }

  @Test
  void oneSnapshotPerChangeOnARestartWithAStore() {
    model.follow(); // a client with a store
    Message m1 = service.post("r1", "bob");
    Room r1 = service.list().get(0);
    dev.svc.chat.store.StoredState state = new dev.svc.chat.store.StoredState(
        Collections.singletonList(new dev.svc.chat.store.StoredRoom(r1, 1, 1)), Collections.<Receipt>emptyList(),
        Collections.<Message>emptyList(), Collections.<dev.svc.chat.store.StoredSend>emptyList(), 1);
    model.subscribe(snapshots::add, () -> { throw new AssertionError("no listing: the store starts the list"); });
    model.restore(state, Collections.singletonMap("r1",
        new dev.svc.chat.store.RoomDigest(0, Collections.singletonList(m1), Collections.singletonList(m1))));
    run();
    assertEquals(1, snapshots.size(), "the store's: " + snapshots);
    assertTrue(latest().fromStore());
    relist(false); // the service's listing: the same rooms, now following the service
    assertEquals(2, snapshots.size(), "the service's: " + snapshots);
    assertFalse(latest().fromStore());
    assertEquals(1, unread("r1"));
    relist(false); // recovery's listing after the first
    assertEquals(2, snapshots.size(), "no change: " + snapshots);
  }

  private static List<String> ids(RoomList list) {
    List<String> out = new ArrayList<>();
    for (RoomSummary s : list.rooms()) out.add(s.room().id());
    return out;
  }

  /** The service's rooms: messages and receipts, answered at once. */
  private final class Service implements RecoverySource {
    final TreeMap<String, List<Message>> rooms = new TreeMap<>();
    final List<Receipt> receipts = new ArrayList<>();
    long clock = 1_000;
    int reads;
    /** Whether pages are answered only when the test runs them from {@link #held}. */
    boolean holdPages;
    final ArrayDeque<Runnable> held = new ArrayDeque<>();

    Message post(String roomId, String sender) {
      List<Message> list = rooms.computeIfAbsent(roomId, r -> new ArrayList<>());
      long seq = list.size() + 1;
      Message m = Message.builder().id(roomId + "-" + seq).roomId(roomId).seq(seq).rev(seq).senderId(sender)
          .clientMessageId("c" + seq).addPart(MessagePart.text("m" + seq)).createdAt(clock++).build();
      list.add(m);
      return m;
    }

    void read(String roomId, String user, long seq) {
      receipts.add(Receipt.of(roomId, user, roomId + "-" + seq, seq, clock));
    }

    List<Room> list() {
      List<Room> out = new ArrayList<>();
      for (String id : rooms.keySet()) {
        List<Message> list = rooms.get(id);
        out.add(Room.builder().id(id).createdAt(1).lastMessageSeq(list.size())
            .lastMessageAt(list.isEmpty() ? null : list.get(list.size() - 1).createdAt()).rev(list.size()).build());
      }
      return out;
    }

    @Override
    public CompletableFuture<List<Room>> listRooms() {
      return CompletableFuture.completedFuture(list());
    }

    @Override
    public CompletableFuture<MessagePage> messages(String roomId, MessageQuery q) {
      reads++;
      List<Message> out = new ArrayList<>();
      List<Message> all = rooms.getOrDefault(roomId, new ArrayList<>());
      for (Message m : all) {
        if (m.seq() > q.after() && out.size() < q.limit()) out.add(m);
      }
      boolean more = !out.isEmpty() && out.get(out.size() - 1).seq() < all.size();
      MessagePage page = new MessagePage(out, more); // the page as read now, whenever it is answered
      if (!holdPages) return CompletableFuture.completedFuture(page);
      CompletableFuture<MessagePage> answer = new CompletableFuture<>();
      held.add(() -> answer.complete(page));
      return answer;
    }

    @Override
    public CompletableFuture<ChangesPage> changes(String roomId, long since) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<List<Receipt>> receipts(String roomId) {
      List<Receipt> out = new ArrayList<>();
      for (Receipt r : receipts) {
        if (r.roomId().equals(roomId)) out.add(r);
      }
      return CompletableFuture.completedFuture(out);
    }
  }
}
