package dev.svc.chat.testkit.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.PushPlatform;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.server.WebhookEvent;
import dev.svc.chat.testkit.RecordedPush;
import dev.svc.chat.testkit.SvcTestServer;
import dev.svc.chat.testkit.WebhookInbox;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The example of the README's test kit section: a bot tested against the in-process reference server, with
 * nothing but the test kit and the SDK.
 */
class CommandBotTest {
  @RegisterExtension
  static SvcTestServer svc = SvcTestServer.perTest();

  private String room;
  private CommandBot bot;
  private ChatClient alice;
  private final BlockingQueue<Message> aliceSees = new LinkedBlockingQueue<>();

  @BeforeEach
  void startTheBot() throws Exception {
    room = svc.createRoom("support", "alice", "bot", "dave");
    bot = new CommandBot(svc.connect("bot"), "bot");
    bot.serve(room);
    alice = svc.connect("alice");
    alice.on(EventType.NEW_MESSAGE, aliceSees::add);
    alice.joinRoom(room).get();
  }

  /** Returns the next message alice sees from the bot. */
  private Message nextReply() throws InterruptedException {
    while (true) {
      Message m = aliceSees.poll(30, TimeUnit.SECONDS);
      assertNotNull(m, "no reply from the bot within 30 s");
      if (m.senderId().equals("bot")) return m;
    }
  }

  @Test
  void answersCommandsAndIgnoresChatter() throws Exception {
    alice.sendText(room, "hello everyone").get();
    alice.sendText(room, "/echo hi there").get();
    assertEquals("hi there", nextReply().text()); // the bot ignored the chatter: this is its first message

    alice.sendText(room, "/help").get();
    assertEquals("commands: /echo <text>, /help", nextReply().text());
    alice.sendText(room, "/dance now").get();
    assertEquals("unknown command /dance; try /help", nextReply().text());
  }

  @Test
  void keepsAnsweringAfterEveryTokenExpired() throws Exception {
    assertEquals("before", echo("before"));

    svc.advance(Duration.ofHours(2)); // both tokens (one hour) are expired now; no wall-clock time passed

    // alice's send and the bot's reply each meet the expiry, refresh the token and go through
    assertEquals("after", echo("after"));
  }

  private String echo(String text) throws Exception {
    alice.sendText(room, "/echo " + text).get();
    return nextReply().text();
  }

  @Test
  void aTokenIsRefusedOnceItsLifetimeHasPassedOnTheVirtualClock() throws Exception {
    String token = svc.mintToken("carol", Duration.ofMinutes(5));
    svc.advance(Duration.ofMinutes(6));
    ChatClient carol = svc.newClient(SvcOptions.builder(svc.apiUrl()).build()); // no refresher: the app's own
    ExecutionException e = assertThrows(ExecutionException.class, () -> carol.connect("carol", token).get());
    assertEquals("token_expired", assertInstanceOf(ApiException.class, e.getCause()).code());
  }

  @Test
  void repliesReachTheTenantsWebhookAndOfflineMembersAsPushes() throws Exception {
    WebhookInbox webhooks = svc.webhooks(); // from now on the tenant's webhooks arrive here
    ChatClient davesPhone = svc.connect("dave");
    davesPhone.registerDeviceToken("dave-fcm-1", PushPlatform.FCM).get();
    davesPhone.disconnect().get();

    alice.sendText(room, "/echo see you at noon").get();
    Message reply = nextReply();

    // alice's command and the bot's reply, each once (deliveries may overtake each other)
    List<WebhookEvent> hooks = List.of(webhooks.next(WebhookEvent.MESSAGE_NEW), webhooks.next(WebhookEvent.MESSAGE_NEW));
    assertEquals(Set.of("alice: /echo see you at noon", "bot: see you at noon"),
        hooks.stream().map(h -> h.message().senderId() + ": " + h.message().text()).collect(Collectors.toSet()));

    List<RecordedPush> pushes = svc.pushes("dave");
    assertTrue(pushes.stream().anyMatch(p -> p.messageId().equals(reply.id()) && p.token().equals("dave-fcm-1")),
        pushes.toString());
  }
}
