package dev.svc.chat.samples.session;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.session.SessionFetcher;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.session.SessionState;
import dev.svc.chat.session.SessionStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import okhttp3.Cookie;
import okhttp3.CookieJar;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * An app's side: signs in to the tenant backend (its cookie lands in an OkHttp {@link CookieJar}), then
 * lets a {@link SessionManager} fetch {@code /api/chat/session} with that cookie, connect, and keep the
 * token fresh. The app never sees an API key, and never names its user to the chat route.
 */
public final class ChatApp implements AutoCloseable {
  private final OkHttpClient http;
  private final String backendUrl;
  private final SessionManager manager;
  private final List<SessionState> states = new CopyOnWriteArrayList<>();

  /**
   * Creates the app for a backend.
   *
   * @param backendUrl the tenant backend's base URL
   * @param onState receives every session state
   */
  public ChatApp(String backendUrl, Consumer<SessionState> onState) {
    this(backendUrl, null, onState);
  }

  /**
   * Creates the app for a backend, with its callbacks on an executor of the app's, such as a UI thread.
   *
   * @param backendUrl the tenant backend's base URL
   * @param callbackExecutor runs the session states and every callback of the client (the SDK's default
   *     thread when null), such as {@code SwingUtilities::invokeLater} in a Swing app
   * @param onState receives every session state
   */
  public ChatApp(String backendUrl, Executor callbackExecutor, Consumer<SessionState> onState) {
    this(backendUrl, callbackExecutor, null, onState);
  }

  /**
   * Creates the app for a backend, with its callbacks on an executor of the app's and its client made by a
   * factory of the app's (the desktop client's adds its offline store).
   *
   * @param backendUrl the tenant backend's base URL
   * @param callbackExecutor runs the session states and every callback of the client (the SDK's default
   *     thread when null)
   * @param clientFactory makes the client from the manager's options, or null for {@code Svc.init}
   * @param onState receives every session state
   */
  public ChatApp(String backendUrl, Executor callbackExecutor, SessionManager.ClientFactory clientFactory,
      Consumer<SessionState> onState) {
    this.backendUrl = backendUrl;
    this.http = new OkHttpClient.Builder().cookieJar(new MemoryCookieJar()).build();
    SessionManager.Builder builder = SessionManager.builder(
        SessionFetcher.http(backendUrl + "/api/chat/session", http), s -> {
          states.add(s);
          onState.accept(s);
        });
    if (callbackExecutor != null) builder.callbackExecutor(callbackExecutor);
    if (clientFactory != null) builder.clientFactory(clientFactory);
    this.manager = builder.build();
  }

  /** Signs in as {@code user} with the backend's own login (sets its cookie in this app's jar). */
  public void signIn(String user) throws IOException {
    Request request = new Request.Builder().url(backendUrl + "/login")
        .post(RequestBody.create("{\"user\":\"" + user + "\"}", MediaType.get("application/json"))).build();
    try (Response response = http.newCall(request).execute()) {
      if (!response.isSuccessful()) throw new IOException("login answered " + response.code());
    }
  }

  /** Returns the session manager. */
  public SessionManager sessions() {
    return manager;
  }

  /** Returns the states seen so far. */
  public List<SessionState> states() {
    return states;
  }

  @Override
  public void close() {
    manager.close();
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }

  /** A cookie jar in memory, like a browser's for one site. */
  static final class MemoryCookieJar implements CookieJar {
    private final Map<String, Cookie> cookies = new HashMap<>();

    @Override
    public synchronized void saveFromResponse(HttpUrl url, List<Cookie> list) {
      for (Cookie c : list) cookies.put(c.domain() + c.path() + c.name(), c);
    }

    @Override
    public synchronized List<Cookie> loadForRequest(HttpUrl url) {
      List<Cookie> out = new ArrayList<>();
      for (Cookie c : cookies.values()) {
        if (c.matches(url)) out.add(c);
      }
      return out;
    }
  }

  /**
   * Signs in to a running backend and prints the chat of the user's first room for a minute.
   *
   * @param args the backend URL and the user, such as {@code http://127.0.0.1:7070 alice}
   */
  public static void main(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : "http://127.0.0.1:7070";
    String user = args.length > 1 ? args[1] : "alice";
    java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(1);
    try (ChatApp app = new ChatApp(url, s -> {
      System.out.println("session: " + s);
      if (s.status() == SessionStatus.READY) ready.countDown();
    })) {
      app.signIn(user);
      app.sessions().start();
      ready.await(10, java.util.concurrent.TimeUnit.SECONDS);
      ChatClient client = app.sessions().state().client();
      if (client == null) throw new IllegalStateException("not signed in: " + app.sessions().state());
      client.on(EventType.NEW_MESSAGE, (Message m) -> System.out.println(m.senderId() + ": " + m.parts()));
      Thread.sleep(60_000); // a sample's lifetime, not synchronisation
    }
  }
}
