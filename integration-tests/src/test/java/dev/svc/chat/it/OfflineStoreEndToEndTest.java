package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.WAIT;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.testing.Await;
import dev.svc.chat.Room;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSubscriptionListener;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client with the SQLite store against the reference server: restarted, it delivers only what it missed, once
 * and in order; started without a network, it shows its rooms, messages and unread counts from the store.
 */
class OfflineStoreEndToEndTest {
  @TempDir Path dir;
  private ChatFixture chat;
  private Admin admin;

  @BeforeEach
  void start() {
    chat = new ChatFixture(ReferenceServer.builder().port(0));
    admin = chat.admin();
  }

  @AfterEach
  void stop() {
    chat.close();
  }

  /** The node alice's devices use: in the cluster the other one than bob's, so reads and messages cross nodes. */
  private String aliceNode() {
    List<ReferenceServer> nodes = chat.nodes();
    return nodes.get(nodes.size() - 1).apiUrl();
  }

  private SvcOptions.Builder withStore(String apiUrl) {
    return SvcOptions.builder(apiUrl).store(SqliteChatStore.provider(dir.resolve("store").toFile()));
  }

  @Test
  void tokensAreNeverStoredAndLogoutLeavesNothingOfTheUser() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    ChatClient bob = chat.connected("bob");
    String token = admin.mint("alice");
    ChatClient alice = chat.newClient(withStore(aliceNode()).build());
    RecordingHandler<Message> news = ChatFixture.record(alice, EventType.NEW_MESSAGE);
    await(alice.connect("alice", token));
    await(bob.sendText(room, "secret plans"));
    news.next(WAIT);
    await(alice.sendText(room, "noted"));
    File[] files = dir.resolve("store").toFile().listFiles();
    assertTrue(files != null && files.length > 0);
    for (File f : files) {
      String bytes = new String(java.nio.file.Files.readAllBytes(f.toPath()), java.nio.charset.StandardCharsets.ISO_8859_1);
      assertFalse(bytes.contains(token), f.getName() + " holds the session token");
    }
    await(alice.logout());
    File[] left = dir.resolve("store").toFile().listFiles();
    assertEquals(0, left == null ? 0 : left.length, "the user's database and its side files are gone");

    ChatClient again = chat.newClient(withStore(aliceNode()).build());
    RecordingHandler<RoomList> lists = new RecordingHandler<>();
    again.roomList(lists);
    await(again.connect("alice", admin.mint("alice")));
    RoomList first = lists.next(WAIT);
    assertFalse(first.fromStore() && first.room(room) != null, "nothing of the wiped store is shown");
  }

  @Test
  void historyFromBeforeTheFirstStartIsKeptForOfflineReadsAndCounts() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    ChatClient bob = chat.connected("bob");
    for (int i = 1; i <= 4; i++) await(bob.sendText(room, "before " + i)); // before alice's device ever connected

    ChatClient alice1 = chat.newClient(withStore(aliceNode()).build());
    RecordingHandler<RoomList> lists = new RecordingHandler<>();
    alice1.roomList(lists);
    await(alice1.connect("alice", admin.mint("alice")));
    lists.next(l -> l.room(room) != null && l.room(room).unreadCount() == 4); // counted from the service
    assertEquals(4, await(alice1.getMessages(room)).messages().size()); // from the service, or kept by the count
    // The room was active just before the connect, so the first listing left its start unsure: the store gets
    // the room's watermark, without which it answers no page, once recovery has read the room and placed it.
    // Closed before that (a loaded machine), the next start has the messages but no range, and asks the service.
    Await.until("alice's store holds the room's whole page", () -> {
      try {
        return alice1.getMessages(room).get(10, TimeUnit.SECONDS).fromStore();
      } catch (Exception e) {
        return false;
      }
    });
    alice1.close();

    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    ChatClient alice2 = chat.newClient(withStore("http://127.0.0.1:" + deadPort + "/v1").build());
    RecordingHandler<RoomList> offline = new RecordingHandler<>();
    alice2.roomList(offline);
    alice2.connect("alice", admin.mint("alice"));
    RoomList shown = offline.next(WAIT);
    assertEquals(4, shown.room(room).unreadCount(), "the messages the count read were kept");
    MessagePage page = await(alice2.getMessages(room));
    assertTrue(page.fromStore(), "the page read from the service was kept");
    assertEquals(List.of(1L, 2L, 3L, 4L), seqs(page.messages()));
  }

  @Test
  void anAppStartsOfflineFromItsStoreWithNoTokenAndNoNetwork() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    ChatClient bob = chat.connected("bob");
    ChatClient alice1 = chat.newClient(withStore(aliceNode()).build());
    RecordingHandler<RoomList> lists = new RecordingHandler<>();
    alice1.roomList(lists);
    await(alice1.connect("alice", admin.mint("alice")));
    for (int i = 1; i <= 3; i++) await(bob.sendText(room, "hello " + i));
    lists.next(l -> l.room(room) != null && l.room(room).unreadCount() == 3);
    Await.until("alice's store holds the room's page", () -> {
      try {
        return alice1.getMessages(room).get(10, TimeUnit.SECONDS).fromStore();
      } catch (Exception e) {
        return false;
      }
    });
    alice1.close();

    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    ChatClient alice2 = chat.newClient(withStore("http://127.0.0.1:" + deadPort).build());
    RecordingHandler<RoomList> offline = new RecordingHandler<>();
    alice2.roomList(offline);
    await(alice2.openOffline("alice")); // no token, no placeholder, no network
    RoomList shown = offline.next(WAIT);
    assertTrue(shown.fromStore());
    assertEquals(3, shown.room(room).unreadCount());
    assertEquals(List.of(room), await(alice2.listRooms()).stream().map(Room::id).toList());
    MessagePage page = await(alice2.getMessages(room));
    assertTrue(page.fromStore());
    assertEquals(List.of(1L, 2L, 3L), seqs(page.messages()));
    assertEquals(dev.svc.chat.ConnectionState.DISCONNECTED, alice2.state(), "nothing tried the network");
    // another user is refused: the client is bound to alice, as by connect
    assertTrue(alice2.connect("bob", admin.mint("bob")).handle((v, e) -> e instanceof dev.svc.chat.ChatStateException)
        .get(10, TimeUnit.SECONDS));
  }

  private static List<Long> seqs(List<Message> list) {
    return list.stream().map(Message::seq).toList();
  }

  @Test
  void aRestartDeliversOnlyWhatWasMissedAndAnOfflineStartShowsTheStore() throws Exception {
    String room = admin.createRoom("general", "alice", "bob");
    ChatClient bob = chat.connected("bob");

    // alice's first run: three messages arrive and are stored
    ChatClient alice1 = chat.newClient(withStore(aliceNode()).build());
    RecordingHandler<Message> first = ChatFixture.record(alice1, EventType.NEW_MESSAGE);
    await(alice1.connect("alice", admin.mint("alice")));
    Message m1 = await(bob.sendText(room, "one"));
    await(bob.sendText(room, "two"));
    await(bob.sendText(room, "three"));
    for (int i = 1; i <= 3; i++) assertEquals(i, first.next(WAIT).seq());
    alice1.close();

    // while alice is away: two messages and an edit
    await(bob.sendText(room, "four"));
    await(bob.sendText(room, "five"));
    Message edited = await(bob.updateMessage(room, m1.id(), List.of(MessagePart.text("one, edited"))));

    // alice's second run, on the same store: what she missed, once, in order; nothing she had
    ChatClient alice2 = chat.newClient(withStore(aliceNode()).build());
    RecordingHandler<Message> news = ChatFixture.record(alice2, EventType.NEW_MESSAGE);
    RecordingHandler<Message> updates = ChatFixture.record(alice2, EventType.MESSAGE_UPDATED);
    RecordingHandler<RecoveryEvent> recovery = ChatFixture.record(alice2, EventType.RECOVERY);
    RecordingHandler<RoomList> lists = new RecordingHandler<>();
    alice2.roomList(lists);
    await(alice2.connect("alice", admin.mint("alice")));
    recovery.next(e -> e.roomId() == null && e.phase() == RecoveryEvent.Phase.FINISHED);
    assertEquals(List.of(4L, 5L), seqs(news.all()), "the two sent while away, and not 1 to 3 again");
    assertEquals(List.of(edited), updates.all(), "the edit made while away, once");
    MessagePage page = await(alice2.getMessages(room));
    assertTrue(page.fromStore(), "the store holds the whole page");
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seqs(page.messages()));
    assertEquals("one, edited", page.messages().get(0).text());
    RoomList fromStore = lists.next(WAIT);
    assertTrue(fromStore.fromStore(), "the first snapshot comes from the store");
    assertEquals(3, fromStore.room(room).unreadCount(), "what the store held: bob's 1 to 3, never read");
    RoomList synced = lists.next(l -> !l.fromStore() && l.room(room) != null && l.room(room).unreadCount() == 5);
    assertEquals("five", synced.room(room).lastMessage().text());
    alice2.close();

    // alice's third run, with the service out of reach: everything from the store at once
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    ChatClient alice3 = chat.newClient(withStore("http://127.0.0.1:" + deadPort + "/v1").build());
    RecordingHandler<RoomList> offline = new RecordingHandler<>();
    alice3.roomList(offline);
    alice3.connect("alice", admin.mint("alice")); // never connects
    RoomList shown = offline.next(WAIT);
    assertTrue(shown.fromStore());
    assertEquals(5, shown.room(room).unreadCount(), "counts as they were, without the network");
    assertEquals("five", shown.room(room).lastMessage().text());
    MessagePage offlinePage = await(alice3.getMessages(room));
    assertTrue(offlinePage.fromStore());
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seqs(offlinePage.messages()));
    assertEquals(List.of(room), await(alice3.listRooms()).stream().map(Room::id).toList());
    CompletableFuture<List<Message>> initial = new CompletableFuture<>();
    Svc.createRoomSubscription(alice3, room, "alice", new RoomSubscriptionListener() {
      @Override
      public void onInitialMessages(List<Message> messages) {
        initial.complete(messages);
      }
    });
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seqs(await(initial)), "a room subscription is cache-first, offline too");

    // a read made offline lowers the count at once, is kept across a restart, and reaches the service after it
    String lastId = offlinePage.messages().get(4).id();
    alice3.markRead(room, lastId); // cannot reach the service: kept
    offline.next(l -> l.room(room) != null && l.room(room).unreadCount() == 0);
    alice3.close();
    RecordingHandler<dev.svc.chat.Receipt> bobReads = ChatFixture.record(bob, EventType.ROOM_READ);
    ChatClient alice4 = chat.newClient(withStore(aliceNode()).build());
    RecordingHandler<RoomList> again = new RecordingHandler<>();
    alice4.roomList(again);
    await(alice4.connect("alice", admin.mint("alice")));
    assertEquals(0, again.next(WAIT).room(room).unreadCount(), "the read survived the restart");
    bobReads.next(r -> r.userId().equals("alice") && r.seq() == 5); // the service told bob: the kept read arrived
    assertFalse(new File(dir.toFile(), "store").listFiles().length == 0);
  }
}
