package dev.svc.chat.samples.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.RoomList;
import dev.svc.chat.samples.ServiceTarget;
import dev.svc.chat.samples.session.TenantBackendServer;
import dev.svc.chat.session.SessionStatus;
import dev.svc.chat.testing.Await;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The desktop client keeps its history in the SQLite store: restarted, it shows its rooms, badges and the open
 * room's messages from the store before the session is fetched, then goes on with the session manager's client;
 * started again with the server and the backend stopped, it shows yesterday's rooms, badges and messages, the
 * connection state trying to reach the server, and opening a room clears its badge offline.
 */
class DesktopOfflineStartTest {
  private static final String ME = Conversation.ME;

  @TempDir Path dataDir;

  private static Map<String, Integer> badges(ChatModel model) {
    return model.roomRows().stream().collect(Collectors.toMap(ChatModel.RoomRow::name, ChatModel.RoomRow::unread));
  }

  private static String roomId(ChatModel model, String name) {
    return model.roomRows().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow().id();
  }

  private static Map<String, Integer> badges(RoomList list) {
    return list.rooms().stream().collect(Collectors.toMap(s -> s.room().name(), s -> s.unreadCount()));
  }

  /** Records the model's first room list snapshot that holds rooms. */
  private static AtomicReference<RoomList> firstList(ChatModel model) {
    AtomicReference<RoomList> first = new AtomicReference<>();
    model.addListener(() -> {
      RoomList l = model.roomList();
      if (!l.rooms().isEmpty()) first.compareAndSet(null, l);
    });
    return first;
  }

  /** Waits for a condition of the model, failing with its rooms and status line. */
  private static void await(String what, BooleanSupplier condition, ChatModel model) throws InterruptedException {
    Await.until(what, condition, () -> "rooms " + model.roomRows() + "; " + model.statusLine());
  }

  @Test
  void restartsFromTheStoreAndStartsOfflineWithYesterdaysRoomsBadgesAndMessages() throws Exception {
    String backendUrl;
    String general;
    try (ServiceTarget target = ServiceTarget.start(null);
        TenantBackendServer backend = new TenantBackendServer(target.serverClient()).start(0);
        Conversation others = Conversation.start(target.serverClient())) {
      backendUrl = backend.url();
      general = others.general();

      // yesterday, first run: the conversation, then news in design and random while general is on screen
      try (DesktopApp app = new DesktopApp(backendUrl, ME, null, dataDir.toFile())) {
        app.start();
        others.play(app.controller(), 0);
        Message goodbye = others.lateNews();
        ChatModel model = app.model();
        await("two unread in design and in random, bob's goodbye read", () -> badges(model).equals(
            Map.of("general", 0, "design", 2, "random", 2)) && model.readSeq(general, ME) >= goodbye.seq(), model);
      }

      // second run, the service up: the store shows at once, then the session manager's client takes over
      try (DesktopApp app = new DesktopApp(backendUrl, ME, null, dataDir.toFile())) {
        ChatModel model = app.model();
        AtomicReference<RoomList> first = firstList(model);
        app.start();
        await("the session", () -> model.statusLine().contains("session READY")
            && model.connectionState() == ConnectionState.CONNECTED && first.get() != null
            && !model.roomList().fromStore() && model.roomRows().size() == 3, model);
        assertTrue(first.get().fromStore(), "the first snapshot is the store's: " + first.get());
        Map<String, Integer> stored = badges(first.get());
        assertEquals(0, stored.get("general"));
        assertEquals(2, stored.get("design"));
        // carol's first question came before this device first connected: the count read it from the service and
        // the store kept it, so the store's badge is exact
        assertEquals(2, stored.get("random"), stored.toString());
        assertEquals(Map.of("general", 0, "design", 2, "random", 2), badges(model), "the badges survived the restart");
        assertEquals(general, model.selectedRoom(), "the most recently active room opens");
        Message late = others.carolAsksAgain();
        await("carol's late message counted", () -> badges(model).get("random") == 3, model);
        assertEquals("carol: " + late.text(), model.roomRows().stream().filter(r -> r.name().equals("random"))
            .findFirst().orElseThrow().preview());
      }
    } // the server and the backend stop

    // today: everything is stopped; the client shows the store, with no token and no network
    try (DesktopApp app = new DesktopApp(backendUrl, ME, null, dataDir.toFile())) {
      ChatModel model = app.model();
      AtomicReference<RoomList> first = firstList(model);
      app.start();
      await("the rooms from the store, random open", () -> first.get() != null && model.selectedRoom() != null
          && (model.historyMissing() || model.historyFromStore()), model);
      assertTrue(first.get().fromStore(), first.get().toString());
      Map<String, Integer> stored = badges(first.get());
      assertEquals(0, stored.get("general"), "yesterday's badges");
      assertEquals(2, stored.get("design"), "yesterday's badges");
      assertEquals(3, stored.get("random"), "random's 3 unread, carol's first question among them: " + stored);
      assertEquals(roomId(model, "random"), model.selectedRoom(), "the most recently active room opens");
      // the store-only client opened the store with no token (ChatClient.openOffline): it tries no server
      assertEquals(ConnectionState.DISCONNECTED, model.connectionState(), model.statusLine());
      assertEquals(3, badges(model).get("random"), "shown at start, not opened by the user: not read");
      // the user opening a room marks it read, offline too: its badge goes at once
      app.controller().select(roomId(model, "random"));
      await("random read offline", () -> badges(model).get("random") == 0, model);
      assertEquals(Map.of("general", 0, "design", 2, "random", 0), badges(model));
      assertTrue(model.statusLine().contains("session " + SessionStatus.OFFLINE), model.statusLine());
      assertTrue(model.statusLine().endsWith("rooms from the offline store"), model.statusLine());

      app.controller().select(general);
      await("general from the store", () -> model.historyFromStore() && model.messageRows().size() == 9, model);
      List<ChatModel.MessageRow> rows = model.messageRows();
      assertEquals(List.of("bob", "alice", "carol", "alice", "bot", "carol", "bob", "alice", "bob"),
          rows.stream().map(ChatModel.MessageRow::senderId).toList());
      assertEquals("Nice. I'll tag 0.1.0 right now", rows.get(2).text());
      assertTrue(rows.get(5).deleted(), rows.get(5).toString());
      assertEquals("See you tomorrow!", rows.get(8).text());
      assertEquals(2, model.roomList().totalUnread(), "design's two");
      assertEquals(1, rows.get(2).replies(), "the root's reply count, from the store");
      app.controller().openThread(model.message(rows.get(2).id()));
      await("the thread's reply from the store, offline", () -> model.threadRows().size() == 2, model);
      assertEquals("Go for it, I'll watch the deploy", model.threadRows().get(1).text());

      app.controller().select(roomId(model, "design"));
      await("design from the store, read offline", () -> model.historyFromStore() && model.messageRows().size() == 2
          && badges(model).get("design") == 0, model);
      assertNotNull(app.controller().client());
    }
  }
}
