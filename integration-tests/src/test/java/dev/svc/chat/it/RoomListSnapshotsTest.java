package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.ReconnectSettings;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.RoomList;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The room list of a client with the SQLite store gives one snapshot per change: on connect, on a reconnect that
 * changed nothing, and on a restart from the store. Each phase ends with a message from bob, whose snapshot proves
 * that what the phase caused was delivered before it (one callback queue per client, in order).
 */
class RoomListSnapshotsTest {
  @TempDir Path dir;
  private ChatFixture chat;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws Exception {
    chat = new ChatFixture(ReferenceServer.builder().port(0));
    proxy = FaultProxy.start("127.0.0.1", chat.server().port());
  }

  @AfterEach
  void stop() {
    try {
      chat.close();
    } finally {
      proxy.close();
    }
  }

  private ChatClient alice() {
    return chat.newClient(SvcOptions.builder(proxy.apiUrl()).reconnect(ReconnectSettings.development())
        .store(SqliteChatStore.provider(dir.resolve("store").toFile())).build());
  }

  /**
   * Waits for bob's message {@code text} in the list with {@code unread} unread messages (the counts of a listing
   * are read after it), and returns every snapshot received up to it.
   */
  private static List<RoomList> upTo(RecordingHandler<RoomList> lists, String room, String text, int unread)
      throws InterruptedException {
    lists.next(l -> l.room(room) != null && l.room(room).lastMessage() != null
        && text.equals(l.room(room).lastMessage().text()) && l.room(room).unreadCount() == unread);
    return lists.all();
  }

  private static String describe(List<RoomList> snapshots) {
    StringBuilder b = new StringBuilder();
    for (RoomList l : snapshots) {
      b.append("\n  ").append(l).append(l.fromStore() ? " (store)" : "");
      l.rooms().forEach(r -> b.append("\n    ").append(r).append(' ').append(r.room())
          .append(" last=").append(r.lastMessage()));
    }
    return b.toString();
  }

  private static void assertNoRepeat(List<RoomList> snapshots, String phase) {
    for (int i = 1; i < snapshots.size(); i++) {
      assertNotEquals(snapshots.get(i - 1), snapshots.get(i), phase + ": snapshot " + i + " repeats the one before: "
          + snapshots);
    }
  }

  @Test
  void oneSnapshotPerChangeOnConnectReconnectAndRestart() throws Exception {
    String room = chat.admin().createRoom("general", "alice", "bob");
    ChatClient bob = chat.connected("bob");
    await(bob.sendText(room, "one"));
    await(bob.sendText(room, "two"));

    ChatClient alice1 = alice();
    RecordingHandler<RoomList> lists = new RecordingHandler<>();
    alice1.roomList(lists);
    RecordingHandler<ConnectionStateChange> states = ChatFixture.record(alice1, EventType.CONNECTION_STATE);
    RecordingHandler<Message> news = ChatFixture.record(alice1, EventType.NEW_MESSAGE);
    await(alice1.connect("alice", chat.admin().mint("alice")));
    await(bob.sendText(room, "after connect"));
    List<RoomList> connect = upTo(lists, room, "after connect", 3);
    assertNoRepeat(connect, "connect");
    news.next(m -> m.text().equals("after connect"));

    RecordingHandler<RecoveryEvent> recoveries = ChatFixture.record(alice1, EventType.RECOVERY);
    assertTrue(proxy.cutWebSockets() > 0, "a socket to cut");
    states.next(s -> s.current() == ConnectionState.RECONNECTING);
    states.next(s -> s.current() == ConnectionState.CONNECTED);
    // the reconnect's recovery listed the rooms again
    recoveries.next(r -> r.roomId() == null && r.phase() == RecoveryEvent.Phase.FINISHED);
    await(bob.sendText(room, "after reconnect"));
    List<RoomList> reconnect = upTo(lists, room, "after reconnect", 4);
    assertNoRepeat(reconnect, "reconnect");
    assertEquals(connect.size() + 1, reconnect.size(), "a reconnect that changed nothing gives no snapshot, bob's "
        + "message one: " + describe(reconnect.subList(connect.size() - 1, reconnect.size())));
    alice1.close();

    ChatClient alice2 = alice();
    RecordingHandler<RoomList> restarted = new RecordingHandler<>();
    alice2.roomList(restarted);
    await(alice2.connect("alice", chat.admin().mint("alice")));
    await(bob.sendText(room, "after restart"));
    List<RoomList> restart = upTo(restarted, room, "after restart", 5);
    assertNoRepeat(restart, "restart");
    assertTrue(restart.get(0).fromStore(), "the first snapshot is the store's");
  }
}
