package dev.svc.chat.samples.bot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.EventType;
import dev.svc.chat.MentionText;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.SendOptions;
import dev.svc.chat.samples.Replies;
import dev.svc.chat.testkit.SvcTestServer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The bot sample against the test kit's server: commands, replies, reactions, reminders and expired tokens. */
class ChatBotTest {
  @RegisterExtension
  static SvcTestServer svc = SvcTestServer.perTest();

  private String room;
  private ChatClient botClient;
  private ChatBot bot;
  private ChatClient alice;
  private final BlockingQueue<Message> aliceSees = new LinkedBlockingQueue<>();
  private final BlockingQueue<Message> aliceSeesUpdated = new LinkedBlockingQueue<>();

  @BeforeEach
  void startTheBot() throws Exception {
    room = svc.createRoom("support", "alice", "bot");
    botClient = svc.connect("bot"); // its own timers on the wall clock: only the reminders are virtual
    bot = new ChatBot(botClient, "bot", svc.clock(), new Random(42)); // reminders on the virtual clock
    alice = svc.connect("alice");
    alice.on(EventType.NEW_MESSAGE, aliceSees::add);
    alice.on(EventType.MESSAGE_UPDATED, aliceSeesUpdated::add);
  }

  @AfterEach
  void stopTheBot() {
    bot.close();
  }

  private Message next(BlockingQueue<Message> queue, Predicate<Message> which) throws InterruptedException {
    while (true) {
      Message m = queue.poll(10, TimeUnit.SECONDS);
      assertNotNull(m, "nothing within 10 s");
      if (which.test(m)) return m;
    }
  }

  private Message ask(String command) throws Exception {
    Message sent = alice.sendText(room, command).get(10, TimeUnit.SECONDS);
    Message answer = next(aliceSees, m -> m.senderId().equals("bot"));
    Replies.Reply reply = Replies.of(answer).orElseThrow(() -> new AssertionError("not a reply: " + answer));
    assertEquals(sent.id(), reply.messageId(), "answers the command it was given");
    assertEquals("alice", reply.senderId());
    assertEquals(command, reply.quote());
    return answer;
  }

  @Test
  void answersCommandsAsRepliesAndIgnoresChatter() throws Exception {
    alice.sendText(room, "hello everyone").get(10, TimeUnit.SECONDS);
    assertEquals(ChatBot.HELP, ask("/help").text()); // the chatter got no answer: this is the first one
    assertTrue(ask("/roll 3d6").text().matches("🎲 3d6: \\d \\+ \\d \\+ \\d = \\d{1,2}"));
    assertEquals("usage: /roll [NdM], such as /roll 2d6", ask("/roll lots").text());
    assertEquals("unknown command /dance; try /help", ask("/dance now").text());
  }

  @Test
  void answersInTheThreadACommandCameFromAndWhenMentioned() throws Exception {
    Message root = alice.sendText(room, "planning").get(10, TimeUnit.SECONDS);
    Message command = alice.sendMessage(room, List.of(MessagePart.text("/roll 1d6")), SendOptions.inThread(root.id()))
        .get(10, TimeUnit.SECONDS);
    Message answer = next(aliceSees, m -> m.senderId().equals("bot"));
    assertEquals(root.id(), answer.threadId(), "in the command's thread");
    assertEquals(command.id(), answer.replyToId());

    MentionText typed = MentionText.parse("@bot help", List.of("alice", "bot"));
    Message mention = alice.sendMessage(room, typed.parts(), typed.options().build()).get(10, TimeUnit.SECONDS);
    Message help = next(aliceSees, m -> m.senderId().equals("bot"));
    assertEquals(mention.id(), help.replyToId());
    assertEquals(ChatBot.HELP, help.text());
    assertEquals(null, help.threadId(), "in the main timeline, where the mention was");
  }

  @Test
  void answersImageWithAPngItDrew() throws Exception {
    Message answer = ask("/image");
    assertEquals("🖼 here is a picture", answer.text());
    FileAttachment image = answer.files().get(0);
    assertEquals("bot-image.png", image.name());
    assertEquals("image/png", image.contentType());
    assertTrue(image.isImage());
    assertEquals(ChatBot.IMAGE_SIDE, image.width());
    assertEquals(ChatBot.IMAGE_SIDE, image.height());
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    alice.downloadFile(image, png, null).get(10, TimeUnit.SECONDS);
    BufferedImage read = ImageIO.read(new ByteArrayInputStream(png.toByteArray()));
    assertEquals(ChatBot.IMAGE_SIDE, read.getWidth());
  }

  @Test
  void reactsToThanksOnce() throws Exception {
    Message thanks = alice.sendText(room, "Thanks for the help!").get(10, TimeUnit.SECONDS);
    Message updated = next(aliceSeesUpdated, m -> m.id().equals(thanks.id()));
    assertEquals(List.of("bot"), updated.reactions().get(ChatBot.THUMBS_UP));
  }

  @Test
  void pollsSeedOneVotePerOption() throws Exception {
    Message poll = ask("/poll Lunch? | pizza | sushi");
    assertEquals("📊 Lunch?\n1️⃣ pizza\n2️⃣ sushi\nreact to vote", poll.text());
    Message voted = next(aliceSeesUpdated, m -> m.id().equals(poll.id()) && m.reactions().size() == 2);
    assertEquals(List.of("bot"), voted.reactions().get("2️⃣"));
    assertTrue(ask("/poll only a question").text().startsWith("usage: /poll"));
  }

  @Test
  void remindsOnTheVirtualClockAfterItsTokenExpired() throws Exception {
    assertEquals("⏰ I'll remind you in 2h", ask("/remind 2h stand-up notes").text());
    svc.advance(Duration.ofMinutes(119));
    assertEquals(0, aliceSees.stream().filter(m -> m.senderId().equals("bot")).count(), "not yet");

    // past the reminder and past every token's hour: the bot's send meets the expiry, refreshes and goes through
    svc.advance(Duration.ofMinutes(2));
    Message reminder = next(aliceSees, m -> m.senderId().equals("bot"));
    assertEquals("⏰ alice, reminder: stand-up notes", reminder.text());
    assertEquals("⏰ I'll remind you in 10s", ask("/remind 10s again").text()); // still answering commands
    assertEquals(ConnectionState.CONNECTED, botClient.state());
  }
}
