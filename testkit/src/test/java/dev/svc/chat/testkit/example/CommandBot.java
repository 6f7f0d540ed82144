package dev.svc.chat.testkit.example;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Subscription;

/**
 * The code under test: a bot that answers commands in the rooms it serves. {@code /echo <text>} answers the
 * text, {@code /help} lists the commands, anything else starting with {@code /} answers that it is unknown;
 * other messages, and its own, are ignored. The smallest bot there is: the samples' {@code ChatBot}
 * ({@code samples/src/main/java/dev/svc/chat/samples/bot}) is a complete one, with replies, reactions and reminders.
 */
final class CommandBot implements AutoCloseable {
  private final ChatClient client;
  private final String userId;
  private final Subscription subscription;

  CommandBot(ChatClient client, String userId) {
    this.client = client;
    this.userId = userId;
    this.subscription = client.on(EventType.NEW_MESSAGE, this::onMessage);
  }

  /** Joins the room, so its messages reach the bot. */
  void serve(String roomId) throws Exception {
    client.joinRoom(roomId).get();
  }

  private void onMessage(Message m) {
    String text = m.text();
    if (m.senderId().equals(userId) || !text.startsWith("/")) return;
    client.sendText(m.roomId(), answer(text.trim()));
  }

  static String answer(String command) {
    if (command.equals("/help")) return "commands: /echo <text>, /help";
    if (command.startsWith("/echo ")) return command.substring("/echo ".length());
    return "unknown command " + command.split(" ", 2)[0] + "; try /help";
  }

  @Override
  public void close() {
    subscription.remove();
  }
}
