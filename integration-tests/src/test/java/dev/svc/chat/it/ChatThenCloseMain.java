package dev.svc.chat.it;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Svc;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link JvmExitAfterCloseTest}: connects, joins, sends, sees its own message
 * come back, closes the client and returns from main. The JVM must then exit by itself.
 * Arguments: apiUrl userId token roomId.
 */
public final class ChatThenCloseMain {
  private ChatThenCloseMain() {}

  public static void main(String[] args) throws Exception {
    ChatClient client = Svc.init(args[0]);
    CompletableFuture<Message> echo = new CompletableFuture<>();
    client.on(EventType.NEW_MESSAGE, echo::complete);
    client.connect(args[1], args[2]).get(10, TimeUnit.SECONDS);
    client.joinRoom(args[3]).get(10, TimeUnit.SECONDS);
    client.sendText(args[3], "bye").get(10, TimeUnit.SECONDS);
    echo.get(10, TimeUnit.SECONDS);
    client.close();
    System.out.println("closed");
  }
}
