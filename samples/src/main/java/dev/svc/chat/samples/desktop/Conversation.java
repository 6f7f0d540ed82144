package dev.svc.chat.samples.desktop;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.MentionText;
import dev.svc.chat.Message;
import dev.svc.chat.samples.bot.BotMain;
import dev.svc.chat.samples.bot.ChatBot;
import dev.svc.chat.samples.bot.SystemScheduler;
import dev.svc.chat.server.ServerClient;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The people the desktop client's user chats with when it runs on its embedded server: bob and carol (scripted
 * users) and the {@link ChatBot}, in three rooms. {@link #play} runs a short conversation with the desktop user
 * (whose side goes through the {@link ChatController}, as if typed): messages, a reply from the bot, an edit, a
 * delete, reactions, read marks and bob typing. {@link #keepChatting} then has bob answer the user.
 */
public final class Conversation implements AutoCloseable {
  /** The desktop user. */
  public static final String ME = "alice";

  private static final List<String> BOB_SAYS = List.of("Sounds good to me.", "Ha, fair point.",
      "Let me check and get back to you.", "Agreed, let's do that.", "Can you put it in the tracker?");

  private final ChatClient bob;
  private final ChatClient carol;
  private final ChatClient botClient;
  private final SystemScheduler scheduler = new SystemScheduler();
  private final ChatBot bot;
  private final String general;
  private final String design;
  private final String random;
  private final ScheduledExecutorService bobsHands = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "scripted-bob");
    t.setDaemon(true);
    return t;
  });

  /** Carol's first question in random, made a mention of the desktop user during {@link #play}. */
  private final Message lunch;

  private Conversation(ServerClient svc) throws Exception {
    general = svc.createRoom("general", List.of(ME, "bob", "carol", "bot")).id();
    design = svc.createRoom("design", List.of(ME, "bob")).id();
    random = svc.createRoom("random", List.of(ME, "carol", "bob")).id();
    bob = BotMain.connect(svc, "bob");
    carol = BotMain.connect(svc, "carol");
    botClient = BotMain.connect(svc, "bot");
    bot = new ChatBot(botClient, "bot", scheduler, new Random(7));
    lunch = carol.sendText(random, "Anyone up for lunch at 12:30?").get(10, TimeUnit.SECONDS);
  }

  /**
   * Creates the rooms and connects bob, carol and the bot.
   *
   * @param svc the service, with the API key
   * @return the running conversation
   * @throws Exception if the service refuses
   */
  public static Conversation start(ServerClient svc) throws Exception {
    return new Conversation(svc);
  }

  /** Returns the id of the room the conversation happens in. */
  public String general() {
    return general;
  }

  /** Returns the id of the room bob posts in during {@link #play}, unread on the desktop. */
  public String design() {
    return design;
  }

  /**
   * Plays the conversation with the desktop user, who must be signed in as {@link #ME}.
   *
   * @param me the desktop user's controller
   * @param paceMillis the pause between two lines (0 in tests)
   * @throws Exception if a step fails or does not show within ten seconds
   */
  public void play(ChatController me, long paceMillis) throws Exception {
    ChatModel model = me.model();
    await("the session", () -> me.client() != null && model.roomRows().size() == 3);
    me.select(general);
    Message hello = say(bob, "Morning! Did last night's release build pass?", model, paceMillis);
    Message green = mine(me, "It did, all green ✔", model, paceMillis);
    Message tag = say(carol, "Nice. I'll tag 0.1.0 after lunch", model, paceMillis);
    mine(me, "/roll 2d6", model, paceMillis);
    await("the bot's reply", () -> model.messageRows().stream().anyMatch(r -> r.replyTo() != null));
    Message oops = say(carol, "oops, wrong room", model, paceMillis);
    carol.deleteMessage(general, oops.id()).get(10, TimeUnit.SECONDS);
    carol.updateMessage(general, tag.id(), List.of(dev.svc.chat.MessagePart.text("Nice. I'll tag 0.1.0 right now")))
        .get(10, TimeUnit.SECONDS);
    carol.toggleReaction(general, green.id(), "❤").get(10, TimeUnit.SECONDS);
    bob.toggleReaction(general, green.id(), "❤").get(10, TimeUnit.SECONDS);
    me.react(general, hello.id(), "☀").get(10, TimeUnit.SECONDS);
    bob.sendText(design, "Mockups for the settings page are up").get(10, TimeUnit.SECONDS);
    bob.sendMessage(general, List.of(dev.svc.chat.MessagePart.text("Go for it, I'll watch the deploy")),
        dev.svc.chat.SendOptions.inThread(tag.id())).get(10, TimeUnit.SECONDS); // a thread on carol's message
    // carol's question now mentions the desktop user: an edit, so the unread counts stay as they were
    MentionText ask = MentionText.parse("@" + ME + " anyone up for lunch at 12:30?", List.of(ME, "carol", "bob"));
    carol.updateMessage(random, lunch.id(), ask.parts(), ask.mentions()).get(10, TimeUnit.SECONDS);
    Message thanks = say(bob, "Thanks both! I'll update the changelog.", model, paceMillis);
    await("the bot's 👍", () -> model.messageRows().stream()
        .anyMatch(r -> r.id().equals(thanks.id()) && r.reactions().containsKey(ChatBot.THUMBS_UP)));
    Message last = mine(me, "Great, see you at the retro", model, paceMillis);
    bob.markRead(general, last.id()).get(10, TimeUnit.SECONDS);
    carol.markRead(general, last.id()).get(10, TimeUnit.SECONDS);
    await("the thread's reply count", () -> model.messageRows().stream().anyMatch(r -> r.replies() > 0));
    me.openThread(model.message(tag.id())); // the side panel
    bob.joinRoom(general).get(10, TimeUnit.SECONDS);
    bob.setTyping(general, true).get(10, TimeUnit.SECONDS);
    try {
      await("everything on screen", () -> missing(model).isEmpty());
    } catch (IllegalStateException e) {
      throw new IllegalStateException(e.getMessage() + "; missing: " + missing(model), e);
    }
  }

  /**
   * Plays the end of the day after {@link #play}: news in design and random, which the desktop user does not
   * open, and bob's goodbye in general, which is on the desktop's screen.
   *
   * @return bob's goodbye
   * @throws Exception if the service refuses
   */
  public Message lateNews() throws Exception {
    bob.sendText(design, "Settings mockups v2 are up too").get(10, TimeUnit.SECONDS);
    carol.sendText(random, "Pizza it is, then").get(10, TimeUnit.SECONDS);
    bob.setTyping(general, false).get(10, TimeUnit.SECONDS);
    return bob.sendText(general, "See you tomorrow!").get(10, TimeUnit.SECONDS);
  }

  /**
   * Has carol ask again in random, which the desktop user does not open.
   *
   * @return her message
   * @throws Exception if the service refuses
   */
  public Message carolAsksAgain() throws Exception {
    return carol.sendText(random, "Still on for pizza at 12:30?").get(10, TimeUnit.SECONDS);
  }

  /** Returns the id of the room carol asks about lunch in, unread on the desktop. */
  public String random() {
    return random;
  }

  /** Returns what of the conversation the model does not show yet, or "" when it shows every part. */
  static String missing(ChatModel model) {
    List<ChatModel.MessageRow> rows = model.messageRows();
    List<String> out = new java.util.ArrayList<>();
    if (rows.stream().noneMatch(ChatModel.MessageRow::edited)) out.add("an edit");
    if (rows.stream().noneMatch(ChatModel.MessageRow::deleted)) out.add("a delete");
    if (rows.stream().noneMatch(r -> r.reactions().getOrDefault("❤", 0) == 2)) out.add("two ❤");
    if (rows.stream().noneMatch(r -> r.seenBy().equals(List.of("bob", "carol")))) out.add("seen by bob, carol");
    if (rows.stream().noneMatch(r -> r.replyTo() != null)) out.add("a reply");
    if (model.typingLine().isEmpty()) out.add("bob typing");
    if (model.onlineUsers().size() < 3) out.add("three online");
    if (model.roomRows().stream().noneMatch(r -> r.unread() > 0)) out.add("an unread room");
    if (rows.stream().noneMatch(r -> r.replies() > 0)) out.add("a thread's reply count");
    if (model.threadRows().size() < 2) out.add("the thread panel");
    if (model.roomRows().stream().noneMatch(r -> r.mentions() > 0)) out.add("a mention badge");
    return String.join(", ", out);
  }

  /**
   * From now on bob answers the desktop user's messages in general: he reads, types for a while, and answers.
   *
   * @param paceMillis how long bob types (about 2 s in the app; less in tests)
   */
  public void keepChatting(long paceMillis) {
    AtomicInteger next = new AtomicInteger();
    bobsHands.schedule(() -> {
      bob.setTyping(general, false);
      bob.sendText(general, "Shipping it, then.");
    }, paceMillis, TimeUnit.MILLISECONDS);
    bob.on(EventType.NEW_MESSAGE, m -> {
      if (!m.roomId().equals(general) || !m.senderId().equals(ME) || m.text().startsWith("/")) return;
      bob.markRead(general, m.id());
      bobsHands.schedule(() -> bob.setTyping(general, true), paceMillis / 4, TimeUnit.MILLISECONDS);
      bobsHands.schedule(() -> {
        bob.setTyping(general, false);
        bob.sendText(general, BOB_SAYS.get(next.getAndIncrement() % BOB_SAYS.size()));
      }, paceMillis, TimeUnit.MILLISECONDS);
    });
  }

  private static Message say(ChatClient who, String text, ChatModel model, long pace) throws Exception {
    pause(pace);
    Message m = who.sendText(model.selectedRoom(), text).get(10, TimeUnit.SECONDS);
    await("'" + text + "' on screen", () -> model.message(m.id()) != null);
    return m;
  }

  private static Message mine(ChatController me, String text, ChatModel model, long pace) throws Exception {
    pause(pace);
    Message m = me.send(text).get(10, TimeUnit.SECONDS);
    await("'" + text + "' on screen", () -> model.message(m.id()) != null);
    return m;
  }

  private static void pause(long millis) throws InterruptedException {
    if (millis > 0) Thread.sleep(millis); // a demo's pace, not synchronisation: every step awaits its result
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new IllegalStateException("timed out waiting for " + what);
      Thread.sleep(10); // polling a condition with a deadline
    }
  }

  @Override
  public void close() {
    bobsHands.shutdownNow();
    bot.close();
    scheduler.close();
    bob.close();
    carol.close();
    botClient.close();
  }
}
