package dev.svc.chat.samples;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Svc;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The README's first command: starts the reference server with its embedded defaults, then Alice
 * (an app user) and an echo bot chat in a room through the SDK, each printing what it sees.
 *
 * <p>Options: {@code --api-url URL} talks to a server that is already running instead (its API key
 * in {@code SVC_API_KEY}); {@code --keep-running} leaves the embedded server up after the chat.
 */
public final class Demo {
  private static final List<String> LINES = List.of(
      "Hi bot, are you there?",
      "Messages arrive once and in order, right?",
      "Great. Bye!");

  private Demo() {}

  public static void main(String[] args) throws Exception {
    String apiUrl = null;
    boolean keepRunning = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--api-url" -> apiUrl = args[++i];
        case "--keep-running" -> keepRunning = true;
        default -> {
          System.err.println("usage: java -jar svc-chat-demo.jar [--api-url URL] [--keep-running]");
          System.exit(2);
        }
      }
    }

    try (ServiceTarget target = ServiceTarget.start(apiUrl)) {
      chat(new TenantBackend(target.apiUrl(), target.apiKey()), target.apiUrl());
      if (keepRunning && target.embedded()) {
        System.out.println("server still running at " + target.apiUrl() + " (API key printed above); Ctrl-C to stop");
        Thread.currentThread().join();
      }
    }
  }

  private static void chat(TenantBackend backend, String apiUrl) throws Exception {
    String roomId = backend.createRoom("demo", "alice", "echo-bot");
    ChatClient alice = Svc.init(apiUrl);
    ChatClient bot = Svc.init(apiUrl);
    try {
      // The bot answers every message that is not its own; both see every message of the room.
      CountDownLatch botSawAll = new CountDownLatch(2 * LINES.size());
      bot.on(EventType.NEW_MESSAGE, m -> {
        System.out.println("  [bot   sees] #" + m.seq() + " " + m.senderId() + ": " + text(m));
        botSawAll.countDown();
        if (!m.senderId().equals("echo-bot")) {
          bot.sendText(m.roomId(), "echo: " + text(m));
        }
      });
      CountDownLatch replies = new CountDownLatch(LINES.size());
      alice.on(EventType.NEW_MESSAGE, m -> {
        System.out.println("  [alice sees] #" + m.seq() + " " + m.senderId() + ": " + text(m));
        if (m.senderId().equals("echo-bot")) replies.countDown();
      });

      bot.connect("echo-bot", backend.mintToken("echo-bot", "Echo Bot")).get(10, TimeUnit.SECONDS);
      alice.connect("alice", backend.mintToken("alice", "Alice")).get(10, TimeUnit.SECONDS);
      alice.joinRoom(roomId).get(10, TimeUnit.SECONDS);
      System.out.println("alice and echo-bot connected; room " + roomId);

      for (String line : LINES) {
        alice.sendMessage(roomId, List.of(MessagePart.text(line))).get(10, TimeUnit.SECONDS);
      }
      if (!replies.await(10, TimeUnit.SECONDS) || !botSawAll.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the bot did not answer every message");
      }

      System.out.println("history, oldest first:");
      for (Message m : alice.getMessages(roomId, MessageQuery.latest(50)).get(10, TimeUnit.SECONDS).messages()) {
        System.out.println("  #" + m.seq() + " " + m.senderId() + ": " + text(m));
      }
    } finally {
      alice.close();
      bot.close();
    }
  }

  private static String text(Message m) {
    StringBuilder sb = new StringBuilder();
    for (MessagePart p : m.parts()) {
      if (p.text() != null) sb.append(p.text());
    }
    return sb.toString();
  }
}
