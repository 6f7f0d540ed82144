package dev.svc.chat.samples.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.SearchPage;
import dev.svc.chat.samples.ServiceTarget;
import dev.svc.chat.samples.bot.BotMain;
import dev.svc.chat.samples.session.TenantBackendServer;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.testing.Await;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The desktop client's search box, driven headless through its {@link SearchController}: online it asks the
 * service and pages by cursor; with the server stopped it finds what its store holds, says so, and a result
 * opens its room with the message selected (loaded with its neighbours when the room's latest page lacks it).
 */
class DesktopSearchTest {
  private static final String ME = Conversation.ME;

  @TempDir Path dataDir;

  private static void await(String what, BooleanSupplier condition, ChatModel model, SearchController search)
      throws InterruptedException {
    Await.until(what, condition, () -> model.statusLine() + "; room " + model.selectedRoom() + "; search "
        + search.summary() + " " + search.hits());
  }

  private static boolean shows(ChatModel model, String messageId) {
    return model.messageRows().stream().anyMatch(r -> r.id().equals(messageId));
  }

  @Test
  void findsAMessageWithTheServerStoppedAndOpensItInItsRoom() throws Exception {
    ServiceTarget target = ServiceTarget.start(null);
    try (TenantBackendServer backend = new TenantBackendServer(target.serverClient()).start(0);
        DesktopApp app = new DesktopApp(backend.url(), ME, null, dataDir.toFile())) {
      ServerClient svc = target.serverClient();
      String general = svc.createRoom("general", List.of(ME, "bob")).id();
      String design = svc.createRoom("design", List.of(ME, "bob")).id();
      ChatModel model = app.model();
      SearchController search = app.controller().search();
      app.start();
      await("the session", () -> model.connectionState() == ConnectionState.CONNECTED
          && model.roomRows().size() == 2, model, search);
      Message kestrel;
      try (ChatClient bob = BotMain.connect(svc, "bob")) {
        kestrel = bob.sendText(design, "The Kestrel mockups are in the shared folder").get(10, TimeUnit.SECONDS);
        bob.sendText(general, "Lunch at noon?").get(10, TimeUnit.SECONDS);
      }
      app.controller().select(general);
      // the desktop client received both (its room list says so); its store keeps what it receives
      await("bob's messages received", () -> model.roomRows().stream().allMatch(r -> r.preview().startsWith("bob: "))
          && shows(model, model.roomList().room(general).lastMessage().id()), model, search);

      target.close(); // the server stops; the client tries to reconnect
      await("the client offline", () -> model.connectionState() != ConnectionState.CONNECTED, model, search);
      SearchPage page = search.search("kestrel mockup*").get(10, TimeUnit.SECONDS);
      assertTrue(page.fromStore(), "the store answered: " + page);
      assertTrue(search.fromStore());
      assertTrue(search.summary().endsWith("from this device (offline)"), search.summary());
      List<SearchController.Hit> hits = search.hits();
      assertEquals(1, hits.size(), hits.toString());
      SearchController.Hit hit = hits.get(0);
      assertEquals(kestrel.id(), hit.message().id());
      assertEquals("design", hit.roomName());
      assertEquals("bob", hit.senderId());
      assertEquals("The <b>Kestrel</b> <b>mockups</b> are in the shared folder", hit.snippetHtml());
      assertFalse(search.hasMore());

      assertEquals(general, model.selectedRoom(), "design is not open");
      search.open(hit); // a click on the result
      await("design open with the message selected", () -> design.equals(model.selectedRoom())
          && kestrel.id().equals(model.focusedMessage()) && shows(model, kestrel.id()), model, search);
      assertEquals("The Kestrel mockups are in the shared folder", model.message(kestrel.id()).text());
      app.controller().select(general);
      assertNull(model.focusedMessage(), "another room opened: nothing selected");
    } finally {
      target.close();
    }
  }

  @Test
  void findsOnlineAndOpensAResultOutsideTheLatestPageOfARoomNotOpen() throws Exception {
    try (ServiceTarget target = ServiceTarget.start(null);
        TenantBackendServer backend = new TenantBackendServer(target.serverClient()).start(0);
        DesktopApp app = new DesktopApp(backend.url(), ME, null, dataDir.toFile())) {
      ServerClient svc = target.serverClient();
      String general = svc.createRoom("general", List.of(ME, "bob")).id();
      String design = svc.createRoom("design", List.of(ME, "bob")).id();
      ChatModel model = app.model();
      SearchController search = app.controller().search();
      app.start();
      await("the session", () -> model.connectionState() == ConnectionState.CONNECTED
          && model.roomRows().size() == 2, model, search);
      List<Message> design1 = new ArrayList<>();
      Message kestrel;
      try (ChatClient bob = BotMain.connect(svc, "bob")) {
        for (int i = 0; i < 3; i++) design1.add(bob.sendText(design, "status " + i).get(10, TimeUnit.SECONDS));
        kestrel = bob.sendText(design, "The kestrel mockups are up").get(10, TimeUnit.SECONDS);
        // 60 newer ones: the result is not in design's latest page (50)
        List<CompletableFuture<Message>> later = new ArrayList<>();
        for (int i = 0; i < 60; i++) later.add(bob.sendText(design, "kestrel watch, day " + i));
        for (CompletableFuture<Message> f : later) design1.add(f.get(10, TimeUnit.SECONDS));
        bob.sendText(general, "Lunch at noon?").get(10, TimeUnit.SECONDS);
      }
      app.controller().select(general);

      // a phrase: the one message, from the service
      SearchPage page = search.search("\"kestrel mockups\"").get(10, TimeUnit.SECONDS);
      assertFalse(page.fromStore(), page.toString());
      assertEquals("1 result  ·  from the service", search.summary());
      SearchController.Hit hit = search.hits().get(0);
      assertEquals(kestrel.id(), hit.message().id());
      assertEquals("design", hit.roomName());
      assertEquals("The <b>kestrel</b> <b>mockups</b> are up", hit.snippetHtml());

      search.open(hit);
      Message before = design1.get(2);
      Message after = design1.get(3);
      Message newest = design1.get(design1.size() - 1);
      await("design open at the message, with its neighbours and its latest page", () -> design.equals(model.selectedRoom())
          && kestrel.id().equals(model.focusedMessage()) && shows(model, kestrel.id()) && shows(model, before.id())
          && shows(model, after.id()) && shows(model, newest.id()), model, search);
      assertEquals(before.seq() + 1, kestrel.seq());

      // paging by cursor: 61 results, 20 at a time, newest first, each once
      search.search("kestrel").get(10, TimeUnit.SECONDS);
      assertEquals(SearchController.PAGE, search.hits().size());
      assertTrue(search.hasMore());
      assertEquals("20+ results  ·  from the service", search.summary());
      while (search.hasMore()) search.more().get(10, TimeUnit.SECONDS);
      List<SearchController.Hit> all = search.hits();
      assertEquals(61, all.size());
      assertEquals(61, new HashSet<>(all.stream().map(h -> h.message().id()).toList()).size(), "each once");
      assertEquals(newest.id(), all.get(0).message().id(), "newest first");
      assertEquals(kestrel.id(), all.get(60).message().id());
      search.clear();
      assertFalse(search.active());
    }
  }
}
