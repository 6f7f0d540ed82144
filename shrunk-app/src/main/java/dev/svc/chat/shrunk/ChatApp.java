package dev.svc.chat.shrunk;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.session.Session;
import dev.svc.chat.session.SessionFetcher;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.session.SessionState;
import dev.svc.chat.session.SessionStateListener;
import dev.svc.chat.session.SessionStatus;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A small app on the SDK, as an Android app uses it, to be shrunk by ProGuard: the session manager signs in,
 * the app listens with {@code on(NEW_MESSAGE)}, joins a room, sends a message and waits for a reply from
 * someone else, then closes. It prints one line per step; the test reads them.
 *
 * <p>Arguments: {@code apiUrl userId token expiresAtMillis roomId}.
 */
public final class ChatApp {
  private ChatApp() {}

  /**
   * Runs the app.
   *
   * @param args {@code apiUrl userId token expiresAtMillis roomId}
   * @throws Exception when a step fails or times out
   */
  public static void main(String[] args) throws Exception {
    // as on Android, an uncaught error in any thread ends the app (a VerifyError in OkHttp's threads, say)
    Thread.setDefaultUncaughtExceptionHandler(new Thread.UncaughtExceptionHandler() {
      @Override
      public void uncaughtException(Thread t, Throwable e) {
        System.out.println("crashed in " + t.getName() + ": " + e);
        e.printStackTrace(System.out);
        Runtime.getRuntime().halt(70);
      }
    });
    final String apiUrl = args[0];
    final String userId = args[1];
    final String token = args[2];
    final long expiresAt = Long.parseLong(args[3]);
    final String roomId = args[4];

    final CompletableFuture<ChatClient> ready = new CompletableFuture<>();
    SessionManager sessions = SessionManager.create(
        SessionFetcher.of(() -> Session.builder(token, apiUrl, userId, expiresAt).build()),
        new SessionStateListener() {
          @Override
          public void onStateChange(SessionState state) {
            if (state.status() == SessionStatus.READY) ready.complete(state.client());
            if (state.status() == SessionStatus.ERROR) ready.completeExceptionally(state.error());
          }
        });
    try {
      sessions.start();
      ChatClient client = ready.get(20, TimeUnit.SECONDS);
      System.out.println("ready as " + client.userId());

      final CompletableFuture<Message> reply = new CompletableFuture<>();
      client.on(EventType.NEW_MESSAGE, new EventHandler<Message>() {
        @Override
        public void onEvent(Message message) {
          if (!message.senderId().equals(userId)) reply.complete(message);
        }
      });
      client.joinRoom(roomId).get(20, TimeUnit.SECONDS);
      Message sent = client.sendMessage(roomId,
          Collections.singletonList(MessagePart.text("hello from the shrunk app"))).get(20, TimeUnit.SECONDS);
      System.out.println("sent seq " + sent.seq());

      Message received = reply.get(20, TimeUnit.SECONDS);
      System.out.println("received from " + received.senderId() + ": " + received.parts().get(0).text());
    } finally {
      sessions.close();
    }
    System.out.println("closed");
  }
}
