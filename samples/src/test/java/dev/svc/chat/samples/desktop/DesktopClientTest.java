package dev.svc.chat.samples.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ConnectionState;
import dev.svc.chat.samples.bot.ChatBot;
import dev.svc.chat.samples.session.TenantBackendServer;
import dev.svc.chat.testkit.SvcTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The desktop client without its window (the view is a thin renderer of {@link ChatModel}): signed in through
 * the tenant backend and the session manager, it shows the scripted conversation of the embedded mode, and
 * carries on after every token expired on the test kit's virtual clock, where bob answers what alice says.
 */
class DesktopClientTest {
  @RegisterExtension
  static SvcTestServer svc = SvcTestServer.perTest();
  @TempDir Path dataDir;

  @Test
  void showsTheConversationAndSurvivesExpiredTokens() throws Exception {
    try (TenantBackendServer backend = new TenantBackendServer(svc.serverClient()).start(0);
        Conversation others = Conversation.start(svc.serverClient());
        DesktopApp app = new DesktopApp(backend.url(), Conversation.ME, null, dataDir.toFile())) {
      app.start();
      others.play(app.controller(), 0);
      ChatModel model = app.model();

      // the SDK's unread rule: carol's question in random came before alice's client started, and is unread too
      // (counted once the room list's fill read it: a read of its own, which may end after the script)
      Map<String, Integer> unread = Map.of("general", 0, "design", 1, "random", 1);
      Conversation.await("the unread counts " + unread, () -> unread.equals(unreadByRoom(model)));
      assertEquals(unread, unreadByRoom(model));
      assertTrue(model.roomTitle().startsWith("general  ·  "), model.roomTitle());
      List<ChatModel.MessageRow> rows = model.messageRows();
      assertEquals(List.of("bob", "alice", "carol", "alice", "bot", "carol", "bob", "alice"),
          rows.stream().map(ChatModel.MessageRow::senderId).toList());
      ChatModel.MessageRow tag = rows.get(2);
      assertEquals("Nice. I'll tag 0.1.0 right now", tag.text());
      assertTrue(tag.edited());
      assertEquals(1, tag.replies(), "bob answered in its thread");
      List<ChatModel.MessageRow> thread = model.threadRows(); // opened in the side panel; the reply is not above
      assertEquals(List.of(tag.id(), "bob"), List.of(thread.get(0).id(), thread.get(1).senderId()));
      assertEquals("Go for it, I'll watch the deploy", thread.get(1).text());
      assertEquals(Map.of("general", 0, "design", 0, "random", 1), model.roomRows().stream()
          .collect(Collectors.toMap(ChatModel.RoomRow::name, ChatModel.RoomRow::mentions)), "carol's @alice");
      // the composer's Tab completes a member of the open room: the first by id, never the user
      assertEquals("ping @carol ", model.completeMention("ping @ca"));
      assertEquals("@bob ", model.completeMention("@b"));
      assertEquals("@alice", model.completeMention("@alice"), "the user is not offered");
      assertEquals("mail x@b", model.completeMention("mail x@b"), "not a mention: inside a word");
      assertTrue(rows.get(5).deleted() && rows.get(5).text().isEmpty(), rows.get(5).toString());
      assertEquals(Map.of("❤", 2), rows.get(1).reactions());
      assertTrue(rows.get(1).mine());
      assertEquals(Map.of("☀", 1), rows.get(0).reactions());
      ChatModel.MessageRow roll = rows.get(4);
      assertEquals("/roll 2d6", roll.replyTo().quote());
      assertTrue(roll.text().startsWith("🎲 2d6: "), roll.text());
      ChatModel.MessageRow thanks = rows.get(6);
      assertEquals(Map.of(ChatBot.THUMBS_UP, 1), thanks.reactions());
      assertEquals(List.of(), thanks.seenBy());
      assertEquals(List.of("bob", "carol"), rows.get(7).seenBy()); // read marks under the newest message read
      assertEquals("bob is typing…", model.typingLine());
      assertEquals(List.of("alice", "bob", "bot", "carol"), model.onlineUsers());
      assertEquals("CONNECTED as alice  ·  session READY", model.statusLine());
      // alice read everything bob and carol wrote: her client marked it, and her receipt came back
      Conversation.await("alice's own read mark", () -> model.readSeq(others.general(), "alice") > 0);

      // every token (an hour) expires; alice's next send meets it, the session manager fetches a new session
      // from the backend, and the same client goes on
      svc.advance(Duration.ofHours(2));
      app.controller().send("still here").get(10, TimeUnit.SECONDS);
      Conversation.await("still here on screen",
          () -> model.messageRows().stream().anyMatch(r -> r.text().equals("still here") && !r.pending()));
      assertEquals(ConnectionState.CONNECTED, model.connectionState());

      // after the script, bob stops typing, and answers what alice says
      others.keepChatting(50);
      Conversation.await("bob's answer", () -> model.messageRows().stream()
          .anyMatch(r -> r.senderId().equals("bob") && r.text().equals("Shipping it, then.")));
      app.controller().send("Who writes the release notes?").get(10, TimeUnit.SECONDS);
      Conversation.await("bob's answer", () -> model.messageRows().stream()
          .anyMatch(r -> r.senderId().equals("bob") && r.text().equals("Sounds good to me.")));
      Conversation.await("bob done typing", () -> model.typingLine().isEmpty());
      assertTrue(backend.sessionsMinted() >= 2, "a new session: " + backend.sessionsMinted());
    }
  }

  private static Map<String, Integer> unreadByRoom(ChatModel model) {
    return model.roomRows().stream().collect(Collectors.toMap(ChatModel.RoomRow::name, ChatModel.RoomRow::unread));
  }
}
