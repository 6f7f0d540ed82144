package dev.svc.chat.samples.bot;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.SendOptions;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Subscription;
import dev.svc.chat.TaskScheduler;
import dev.svc.chat.samples.Replies;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

/**
 * A server-side bot, acting as one user in every room it is a member of (the service delivers the messages of
 * all of a user's rooms to each of its connections, so the bot joins none).
 *
 * <ul>
 *   <li>Commands, each answered as a reply to the command (its {@code replyToId}, and a {@link Replies} part for
 *       older readers), in the thread the command was sent in, if any: {@code /help},
 *       {@code /roll [NdM]}, {@code /remind <10s|5m|2h> <text>} (answered again when the time comes),
 *       {@code /poll <question> | <option> | <option>...} (posts the poll and seeds one reaction per option, so
 *       members vote by clicking it), {@code /image} (a PNG drawn on the spot, sent as a file part: the
 *       client uploads it, then sends the message); anything else starting with {@code /} is answered as unknown.
 *   <li>Mentions: a message that mentions the bot is a command without its {@code /} ({@code @bot roll 2d6});
 *       one that names none is answered with the help.
 *   <li>Reactions: a 👍 on any message that thanks ("thanks", "thank you", "thx"), once.
 *   <li>Its own messages, and deleted ones, are ignored.
 * </ul>
 *
 * It survives expired tokens and lost connections through its client: give the client a
 * {@link dev.svc.chat.TokenRefresher} (see {@link BotMain}); the client reconnects, refreshes, and delivers
 * what was missed once. Reminders run on the given {@link TaskScheduler}, a virtual clock in tests.
 */
public final class ChatBot implements AutoCloseable {
  /** The reaction put on thanks. */
  public static final String THUMBS_UP = "👍";
  /** The reactions a poll's options are voted with, in order. */
  public static final List<String> VOTES = List.of("1️⃣", "2️⃣", "3️⃣", "4️⃣");
  /** The answer to {@code /help}. */
  public static final String HELP = "commands: /help, /roll [NdM], /remind <10s|5m|2h> <text>,"
      + " /poll <question> | <option> | <option>, /image";
  /** The side, in pixels, of the square PNG {@code /image} answers with. */
  public static final int IMAGE_SIDE = 256;

  private static final Pattern THANKS = Pattern.compile("\\b(thanks|thank you|thx)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern DICE = Pattern.compile("(\\d{1,2})d(\\d{1,4})");
  private static final Pattern REMIND = Pattern.compile("(\\d{1,5})([smh])\\s+(.+)", Pattern.DOTALL);
  private static final long MAX_REMINDER_MILLIS = 24 * 3_600_000L;

  private final ChatClient client;
  private final String userId;
  private final TaskScheduler scheduler;
  private final Random random;
  private final Subscription subscription;
  private final List<TaskScheduler.Cancellable> reminders = new ArrayList<>();
  private boolean closed;

  /**
   * Starts serving: from now on the bot answers the messages its client delivers.
   *
   * @param client the bot user's client, connected or about to be
   * @param userId the bot's user id
   * @param scheduler runs the reminders
   * @param random rolls the dice
   */
  public ChatBot(ChatClient client, String userId, TaskScheduler scheduler, Random random) {
    this.client = client;
    this.userId = userId;
    this.scheduler = scheduler;
    this.random = random;
    this.subscription = client.on(EventType.NEW_MESSAGE, this::onMessage);
  }

  private void onMessage(Message m) {
    if (m.senderId().equals(userId) || m.isDeleted()) return;
    String text = m.text().trim();
    if (text.startsWith("/")) {
      command(m, text);
    } else if (m.mentions().contains(userId)) {
      String rest = text.replace("@" + userId, " ").trim(); // MentionText writes a mention as @userId
      command(m, rest.isEmpty() ? "/help" : "/" + rest);
    } else if (THANKS.matcher(text).find() && !m.reactions().getOrDefault(THUMBS_UP, List.of()).contains(userId)) {
      client.toggleReaction(m.roomId(), m.id(), THUMBS_UP);
    }
  }

  private void command(Message m, String text) {
    String[] words = text.split("\\s+", 2);
    String name = words[0].toLowerCase(Locale.ROOT);
    String rest = words.length > 1 ? words[1].trim() : "";
    switch (name) {
      case "/help" -> reply(m, HELP);
      case "/roll" -> reply(m, roll(rest));
      case "/remind" -> remind(m, rest);
      case "/poll" -> poll(m, rest);
      case "/image" -> image(m);
      default -> reply(m, "unknown command " + words[0] + "; try /help");
    }
  }

  /** Rolls {@code NdM} (default 1d6): "🎲 2d6: 3 + 5 = 8". */
  String roll(String spec) {
    Matcher d = DICE.matcher(spec.isEmpty() ? "1d6" : spec);
    if (!d.matches()) return "usage: /roll [NdM], such as /roll 2d6";
    int n = Integer.parseInt(d.group(1));
    int sides = Integer.parseInt(d.group(2));
    if (n < 1 || n > 20 || sides < 2) return "I roll 1 to 20 dice of 2 or more sides";
    List<String> rolls = new ArrayList<>();
    int sum = 0;
    for (int i = 0; i < n; i++) {
      int r = 1 + random.nextInt(sides);
      sum += r;
      rolls.add(Integer.toString(r));
    }
    return "🎲 " + n + "d" + sides + ": " + (n == 1 ? sum : String.join(" + ", rolls) + " = " + sum);
  }

  private void remind(Message m, String spec) {
    Matcher r = REMIND.matcher(spec);
    if (!r.matches()) {
      reply(m, "usage: /remind <10s|5m|2h> <text>");
      return;
    }
    long unit = switch (r.group(2)) {
      case "s" -> 1_000L;
      case "m" -> 60_000L;
      default -> 3_600_000L;
    };
    long delay = Long.parseLong(r.group(1)) * unit;
    if (delay > MAX_REMINDER_MILLIS) {
      reply(m, "I remember things for 24 hours at most");
      return;
    }
    String what = r.group(3).trim();
    synchronized (this) {
      if (closed) return;
      TaskScheduler.Cancellable[] self = new TaskScheduler.Cancellable[1];
      self[0] = scheduler.schedule(() -> {
        synchronized (this) {
          reminders.remove(self[0]); // a fired reminder is forgotten: a long-running bot keeps only pending ones
        }
        reply(m, "⏰ " + m.senderId() + ", reminder: " + what);
      }, delay);
      reminders.add(self[0]);
    }
    reply(m, "⏰ I'll remind you in " + r.group(1) + r.group(2));
  }

  private void poll(Message m, String spec) {
    List<String> fields = new ArrayList<>();
    for (String f : spec.split("\\|")) {
      if (!f.isBlank()) fields.add(f.trim());
    }
    if (fields.size() < 3 || fields.size() > 1 + VOTES.size()) {
      reply(m, "usage: /poll <question> | <option> | <option> (2 to " + VOTES.size() + " options)");
      return;
    }
    StringBuilder sb = new StringBuilder("📊 ").append(fields.get(0));
    for (int i = 1; i < fields.size(); i++) sb.append('\n').append(VOTES.get(i - 1)).append(' ').append(fields.get(i));
    sb.append("\nreact to vote");
    int options = fields.size() - 1;
    reply(m, sb.toString()).thenAccept(poll -> {
      // one seed reaction per option, in order, so the options show as buttons
      CompletableFuture<Message> chain = CompletableFuture.completedFuture(poll);
      for (int i = 0; i < options; i++) {
        String vote = VOTES.get(i);
        chain = chain.thenCompose(x -> client.toggleReaction(poll.roomId(), poll.id(), vote));
      }
    });
  }

  private void image(Message m) {
    byte[] png = drawPng(IMAGE_SIDE, random.nextFloat());
    FileSource source = FileSource.builder(() -> new ByteArrayInputStream(png), png.length)
        .name("bot-image.png").contentType("image/png").build();
    List<MessagePart> parts = new ArrayList<>(Replies.to(m, "🖼 here is a picture"));
    parts.add(MessagePart.file(source));
    client.sendMessage(m.roomId(), parts, replyOptions(m));
  }

  /** A square PNG of {@code side} pixels: a diagonal gradient of the hue {@code hue} (0 to 1). */
  static byte[] drawPng(int side, float hue) {
    BufferedImage img = new BufferedImage(side, side, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < side; y++) {
      for (int x = 0; x < side; x++) img.setRGB(x, y, Color.HSBtoRGB(hue, 0.3f + 0.7f * x / side, 1f - 0.6f * y / side));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(img, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a memory stream does not fail
    }
    return out.toByteArray();
  }

  /** The options of an answer to {@code original}: a reply to it, in its thread when it is a thread reply. */
  private static SendOptions replyOptions(Message original) {
    return SendOptions.builder().replyToId(original.id()).threadId(original.threadId()).build();
  }

  /** Answers {@code original}: quoting it, in its thread when it is a thread reply. */
  private CompletableFuture<Message> reply(Message original, String text) {
    return client.sendMessage(original.roomId(), Replies.to(original, text), replyOptions(original));
  }

  /** Stops answering and cancels the pending reminders; the client stays open (its owner closes it). */
  @Override
  public void close() {
    subscription.remove();
    synchronized (this) {
      closed = true;
      for (TaskScheduler.Cancellable c : reminders) c.cancel();
      reminders.clear();
    }
  }
}
