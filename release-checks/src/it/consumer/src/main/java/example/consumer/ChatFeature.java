package example.consumer;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.android.AndroidChatLogger;
import dev.svc.chat.session.Session;
import dev.svc.chat.session.SessionFetcher;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.slf4j.Slf4jChatLogger;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import dev.svc.chat.transport.jdk.JdkTransport;
import java.io.File;
import java.util.concurrent.BlockingQueue;
import okhttp3.OkHttpClient;

/** A user's code on each published Java artifact; the Kotlin one is in src/main/kotlin. */
public final class ChatFeature {
  private ChatFeature() {}

  /** Returns a client of the service at the URL that logs through SLF4J (svc-chat-sdk-slf4j). */
  public static ChatClient client(String apiUrl) {
    return Svc.init(SvcOptions.builder(apiUrl).logger(Slf4jChatLogger.create()).build());
  }

  /** Returns a client that keeps each user's rooms and messages in SQLite under the directory (svc-chat-sdk-store-sqlite). */
  public static ChatClient offlineClient(String apiUrl, File directory) {
    return Svc.init(SvcOptions.builder(apiUrl).store(SqliteChatStore.provider(directory)).build());
  }

  /** Returns a bot's client whose realtime socket runs on the JDK's WebSocket (svc-chat-sdk-transport-jdk). */
  public static ChatClient botClient(String apiUrl) {
    return Svc.init(SvcOptions.builder(apiUrl).transport(JdkTransport.shared()).build());
  }

  /** Puts each new message the client receives into the queue. */
  public static void collect(ChatClient client, BlockingQueue<Message> into) {
    client.on(EventType.NEW_MESSAGE, into::add);
  }

  /** Returns a session manager over a fixed session (svc-chat-session-manager). */
  public static SessionManager sessions(String apiUrl, String userId, String token) {
    Session session = Session.builder(apiUrl, userId, token, Long.MAX_VALUE).build();
    return SessionManager.create(SessionFetcher.of(() -> session), state -> { });
  }

  /** Returns the names of classes from OkHttp and svc-chat-sdk-android, which this project compiles against. */
  public static String[] libraries() {
    return new String[] {OkHttpClient.class.getName(), AndroidChatLogger.class.getName()};
  }
}
