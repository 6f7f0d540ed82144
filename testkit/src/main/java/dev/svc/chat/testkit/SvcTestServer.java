package dev.svc.chat.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.ChatClient;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.server.TenantSettingsUpdate;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs the reference server in-process for a test class or for each test:
 *
 * <pre>{@code
 * @RegisterExtension static SvcTestServer svc = SvcTestServer.perClass();
 *
 * @Test void echoes() throws Exception {
 *   String room = svc.createRoom("support", "alice", "bot");
 *   ChatClient alice = svc.connect("alice");   // connected, closed after the test
 *   ...
 *   svc.advance(Duration.ofHours(2));          // every token minted so far has expired
 * }
 * }</pre>
 *
 * <p>The server listens on 127.0.0.1 on a free port, with one tenant ({@link #apiKey()}), and runs on a
 * {@link VirtualClock} that starts at {@link #START}: token expiry, call ringing and timestamps follow
 * {@link #advance(Duration)}, never the wall clock. Clients made by {@link #connect(String)} refresh their token
 * through the test kit when the server says it expired, as an app's session manager would.
 *
 * <p>Clients, and the webhook endpoint, made during a test are closed after it; those made in a
 * {@code @BeforeAll} method are closed after the class. A per-class server keeps its users, rooms and clock
 * from test to test; a per-test server starts empty at {@link #START}.
 */
public final class SvcTestServer implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
    AfterEachCallback {
  /** The instant the virtual clock starts at. */
  public static final Instant START = Instant.parse("2030-01-01T09:00:00Z");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long WAIT_SECONDS = 10;

  private final boolean perClass;
  private Consumer<ReferenceServer.Builder> configuration = b -> { };
  private final List<AutoCloseable> testScoped = new ArrayList<>();
  private final List<AutoCloseable> classScoped = new ArrayList<>();
  private boolean inTest;
  private boolean startedForTest;
  private Running running;

  private SvcTestServer(boolean perClass) {
    this.perClass = perClass;
  }

  /**
   * Returns an extension that starts one server before the class's tests and stops it after them. Register
   * it in a {@code static} field.
   *
   * @return the extension
   */
  public static SvcTestServer perClass() {
    return new SvcTestServer(true);
  }

  /**
   * Returns an extension that starts a new server before each test and stops it after.
   *
   * @return the extension
   */
  public static SvcTestServer perTest() {
    return new SvcTestServer(false);
  }

  /**
   * Adds settings of the server to start (ring timeout, rate limits, ...); the test kit sets the host, the
   * port and the clock itself.
   *
   * @param configuration changes to the server's builder
   * @return this extension
   */
  public SvcTestServer configure(Consumer<ReferenceServer.Builder> configuration) {
    Objects.requireNonNull(configuration, "configuration");
    Consumer<ReferenceServer.Builder> before = this.configuration;
    this.configuration = b -> {
      before.accept(b);
      configuration.accept(b);
    };
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (perClass) start();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (running == null) {
      start();
      startedForTest = true;
    }
    inTest = true;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    inTest = false;
    closeAll(testScoped);
    if (startedForTest) {
      startedForTest = false;
      stop();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  private void start() {
    VirtualClock clock = new VirtualClock(START);
    ReferenceServer.Builder builder = ReferenceServer.builder();
    configuration.accept(builder);
    ReferenceServer server = builder.host("127.0.0.1").port(0).clock(clock).build().start();
    running = new Running(server, clock);
  }

  private void stop() {
    closeAll(testScoped);
    closeAll(classScoped);
    if (running != null) {
      Running r = running;
      running = null;
      r.server.close();
      r.http.dispatcher().executorService().shutdown(); // the kit's own client: no thread left behind
      r.http.connectionPool().evictAll();
    }
  }

  private static void closeAll(List<AutoCloseable> resources) {
    RuntimeException failure = null;
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        if (failure == null) failure = new IllegalStateException("closing " + resources.get(i) + " failed", e);
        else failure.addSuppressed(e);
      }
    }
    resources.clear();
    if (failure != null) throw failure;
  }

  private Running running() {
    if (running == null) {
      throw new IllegalStateException("the server is not running: register SvcTestServer with @RegisterExtension"
          + " (perClass() in a static field)");
    }
    return running;
  }

  private <T extends AutoCloseable> T closeLater(T resource) {
    (inTest ? testScoped : classScoped).add(resource);
    return resource;
  }

  /**
   * Returns the running reference server, for settings the test kit has no method for.
   *
   * @return the server
   */
  public ReferenceServer server() {
    return running().server;
  }

  /**
   * Returns the REST base URL that apps pass to {@code SvcOptions.builder(apiUrl)}.
   *
   * @return the API URL, such as {@code http://127.0.0.1:41234/v1}
   */
  public String apiUrl() {
    return running().server.apiUrl();
  }

  /**
   * Returns the tenant's secret API key, for code under test that plays the tenant backend.
   *
   * @return the API key
   */
  public String apiKey() {
    return running().server.apiKey();
  }

  /**
   * Returns a server client (the tenant backend's side, from {@code svc-chat-server-sdk}) with this server's URL and API key.
   *
   * @return the server client
   */
  public ServerClient serverClient() {
    return running().admin;
  }

  /**
   * Returns the virtual clock of the server; pass it to {@code SvcOptions.Builder.scheduler} to put a client's
   * timers on it too.
   *
   * @return the clock
   */
  public VirtualClock clock() {
    return running().clock;
  }

  /**
   * Moves the virtual clock forward: tokens whose lifetime passes are expired from then on, calls ring out,
   * and timers of clients on this clock run.
   *
   * @param by how far to move
   */
  public void advance(Duration by) {
    running().clock.advance(by);
  }

  /**
   * Mints a session token for the user with the server's default lifetime (one hour), creating the user if
   * the tenant does not know it.
   *
   * @param userId the user
   * @return the token
   */
  public String mintToken(String userId) {
    return running().admin.mintToken(userId).token();
  }

  /**
   * Mints a session token for the user that expires after {@code lifetime} on the virtual clock.
   *
   * @param userId the user
   * @param lifetime the token's lifetime, in whole seconds
   * @return the token
   * @throws IllegalArgumentException if the lifetime is not whole seconds from 1 s to a day
   */
  public String mintToken(String userId, Duration lifetime) {
    return running().admin.mintToken(MintRequest.builder(userId).expiresIn(lifetime).build()).token();
  }

  /**
   * Creates a room with these members and returns its id.
   *
   * @param name the room's name
   * @param memberIds the members
   * @return the room's id
   */
  public String createRoom(String name, String... memberIds) {
    return running().admin.createRoom(name, List.of(memberIds)).id();
  }

  /**
   * Returns a connected client of the user with the default options; each call is a new connection (another
   * device). It refreshes its token through the test kit when the server says it expired, and is closed after
   * the test.
   *
   * @param userId the user
   * @return the connected client
   */
  public ChatClient connect(String userId) {
    return connect(userId, b -> { });
  }

  /**
   * Returns a connected client of the user, with options changed by {@code options} (a logger, a callback
   * executor, timeouts, a scheduler such as {@link #clock()}); see {@link #connect(String)}.
   *
   * @param userId the user
   * @param options changes to the client's options
   * @return the connected client
   */
  public ChatClient connect(String userId, Consumer<SvcOptions.Builder> options) {
    SvcOptions.Builder builder = SvcOptions.builder(apiUrl())
        .tokenRefresher(() -> CompletableFuture.supplyAsync(() -> mintToken(userId)));
    options.accept(builder);
    ChatClient client = newClient(builder.build());
    await(client.connect(userId, mintToken(userId)), "connecting " + userId);
    return client;
  }

  /**
   * Returns a new client that is not connected, closed after the test.
   *
   * @param options the client's options
   * @return the client
   */
  public ChatClient newClient(SvcOptions options) {
    return closeLater(Svc.init(options));
  }

  /**
   * Returns the pushes the server recorded for the user, oldest first: what it would have sent to FCM or APNs
   * for the user's registered devices while the user had no connection.
   *
   * @param userId the user
   * @return the recorded pushes
   */
  public List<RecordedPush> pushes(String userId) {
    JsonNode body = get("/v1/push/outbox?userId=" + URLEncoder.encode(userId, StandardCharsets.UTF_8));
    List<RecordedPush> out = new ArrayList<>();
    for (JsonNode p : body.path("pushes")) {
      out.add(new RecordedPush(p.path("userId").asText(), p.path("token").asText(), p.path("platform").asText(),
          p.path("roomId").asText(), p.path("messageId").asText(), p.path("senderId").asText(),
          p.path("title").asText(), p.path("body").asText(), Instant.parse(p.path("createdAt").asText())));
    }
    return out;
  }

  /**
   * Returns an inbox of the tenant's webhook deliveries: the first call starts a local endpoint and sets it as
   * the tenant's webhook URL; it is closed after the test (or the class, if opened in {@code @BeforeAll}).
   * Only events after that first call are delivered.
   *
   * @return the inbox
   */
  public WebhookInbox webhooks() {
    Running r = running();
    if (r.webhooks == null) {
      WebhookInbox inbox = new WebhookInbox(r.server.webhookSecret(), r.clock);
      r.admin.updateTenantSettings(TenantSettingsUpdate.builder().webhookUrl(inbox.url()).build());
      r.webhooks = inbox;
      closeLater(() -> {
        if (r.webhooks == inbox) r.webhooks = null;
        inbox.close();
      });
    }
    return r.webhooks;
  }

  private JsonNode get(String path) {
    String origin = apiUrl().replaceFirst("/v1/?$", "");
    Request request = new Request.Builder().url(origin + path).header("x-api-key", apiKey()).get().build();
    try (Response response = running().http.newCall(request).execute()) {
      String body = response.body() == null ? "" : response.body().string();
      if (response.code() != 200) {
        throw new AssertionError("GET " + path + " answered " + response.code() + ": " + body);
      }
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new AssertionError("GET " + path + " failed", e);
    }
  }

  private static <T> T await(CompletableFuture<T> future, String what) {
    try {
      return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError(what + " took over " + WAIT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while " + what, e);
    }
  }

  @Override
  public String toString() {
    return "SvcTestServer[" + (perClass ? "per class" : "per test") + ", "
        + (running == null ? "stopped" : running.server.apiUrl()) + "]";
  }

  /** What one started server holds. */
  private static final class Running {
    final ReferenceServer server;
    final VirtualClock clock;
    /** The HTTP client of the kit's own requests (admin calls, recorded pushes), stopped with the server. */
    final OkHttpClient http = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(WAIT_SECONDS)).build();
    final ServerClient admin;
    WebhookInbox webhooks;

    Running(ReferenceServer server, VirtualClock clock) {
      this.server = server;
      this.clock = clock;
      this.admin = ServerClient.builder(server.apiUrl(), server.apiKey()).okHttpClient(http).build();
    }
  }
}
