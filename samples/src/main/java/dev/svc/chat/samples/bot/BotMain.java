package dev.svc.chat.samples.bot;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.TaskScheduler;
import dev.svc.chat.samples.Replies;
import dev.svc.chat.samples.ServiceTarget;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.MintedToken;
import dev.svc.chat.server.ServerClient;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@link ChatBot}.
 *
 * <ul>
 *   <li>{@code java -cp samples/target/svc-chat-demo.jar dev.svc.chat.samples.bot.BotMain}: starts the reference
 *       server in this JVM, and alice tries every command on the bot, printing what she sees; then it stops.
 *   <li>{@code SVC_API_KEY=sk_... java -cp samples/target/svc-chat-demo.jar dev.svc.chat.samples.bot.BotMain
 *       --api-url http://127.0.0.1:8080/v1 [--user bot]}: serves every room of the bot user on a running server
 *       until Ctrl-C. The bot is server-side, so it holds the API key, and mints its own tokens with it: a
 *       fresh one whenever the service says the last one expired.
 * </ul>
 */
public final class BotMain {
  private BotMain() {}

  public static void main(String[] args) throws Exception {
    String apiUrl = null;
    String user = "bot";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--api-url" -> apiUrl = args[++i];
        case "--user" -> user = args[++i];
        default -> {
          System.err.println("usage: BotMain [--api-url URL (API key in SVC_API_KEY)] [--user ID]");
          System.exit(2);
        }
      }
    }
    try (SystemScheduler scheduler = new SystemScheduler(); ServiceTarget target = ServiceTarget.start(apiUrl)) {
      if (target.embedded()) {
        tryEveryCommand(target.serverClient(), user, scheduler);
        return;
      }
      try (ChatClient client = connect(target.serverClient(), user);
          ChatBot bot = new ChatBot(client, user, scheduler, new Random())) {
        System.out.println(user + " is serving its rooms on " + apiUrl + "; Ctrl-C to stop");
        Thread.currentThread().join();
      }
    }
  }

  /**
   * Returns a connected client of a server-side user (a bot, a scripted peer) that mints a new token with the
   * API key whenever its token expired.
   *
   * @param svc the service, with the API key
   * @param user the user
   * @return the connected client
   * @throws Exception if it cannot connect within ten seconds
   */
  public static ChatClient connect(ServerClient svc, String user) throws Exception {
    MintRequest asBot = MintRequest.builder(user).username("Bot").build();
    MintedToken first = svc.mintToken(asBot);
    ChatClient client = Svc.init(SvcOptions.builder(first.apiUrl())
        .tokenRefresher(() -> freshToken(svc.mintTokenAsync(asBot)))
        .build());
    client.connect(user, first.token()).get(10, TimeUnit.SECONDS);
    return client;
  }

  /**
   * Returns the minted token, or fails as the SDK's refresher contract reads it: the service refusing the mint
   * (a 4xx) as an {@link dev.svc.chat.ApiException}, which ends the session; anything else (the network, a 5xx)
   * as it is, which the client retries with backoff.
   */
  private static java.util.concurrent.CompletableFuture<String> freshToken(
      java.util.concurrent.CompletableFuture<MintedToken> mint) {
    return mint.handle((minted, error) -> {
      if (error == null) return minted.token();
      Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
          ? error.getCause() : error;
      if (cause instanceof dev.svc.chat.server.ServerApiException) {
        dev.svc.chat.server.ServerApiException refused = (dev.svc.chat.server.ServerApiException) cause;
        throw new dev.svc.chat.ApiException(refused.status(), refused.code(), refused.getMessage());
      }
      throw cause instanceof RuntimeException ? (RuntimeException) cause
          : new java.util.concurrent.CompletionException(cause);
    });
  }

  private static void tryEveryCommand(ServerClient svc, String botUser, TaskScheduler scheduler) throws Exception {
    String room = svc.createRoom("bot-demo", List.of("alice", botUser)).id();
    List<String> lines = List.of("/help", "/roll 2d6", "/remind 2s stretch your legs",
        "/poll Lunch? | pizza | sushi | salad", "thanks, bot!");
    // the bot answers each command once, the reminder a second time; the poll gets its three seed votes
    CountDownLatch answers = new CountDownLatch(lines.size());
    CountDownLatch votes = new CountDownLatch(3);
    CountDownLatch thanked = new CountDownLatch(1);
    try (ChatClient bot = connect(svc, botUser);
        ChatBot serving = new ChatBot(bot, botUser, scheduler, new Random());
        ChatClient alice = Svc.init(svc.mintToken("alice").apiUrl())) {
      alice.on(EventType.NEW_MESSAGE, m -> {
        String quote = Replies.of(m).map(r -> "  (re " + r.senderId() + ": " + r.quote() + ")").orElse("");
        System.out.println("  #" + m.seq() + " " + m.senderId() + ": " + m.text().replace("\n", " / ") + quote);
        if (m.senderId().equals(botUser)) answers.countDown();
      });
      alice.on(EventType.MESSAGE_UPDATED, (Message m) -> {
        System.out.println("  #" + m.seq() + " reactions now " + m.reactions());
        if (m.senderId().equals(botUser)) votes.countDown();
        if (m.reactions().containsKey(ChatBot.THUMBS_UP)) thanked.countDown();
      });
      alice.connect("alice", svc.mintToken(MintRequest.builder("alice").username("Alice").build()).token()).get(10, TimeUnit.SECONDS);
      for (String line : lines) alice.sendText(room, line).get(10, TimeUnit.SECONDS);
      if (!answers.await(15, TimeUnit.SECONDS) || !votes.await(10, TimeUnit.SECONDS)
          || !thanked.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the bot did not answer everything");
      }
      System.out.println("the bot answered every command, voted, reminded and said thanks");
    }
  }
}
