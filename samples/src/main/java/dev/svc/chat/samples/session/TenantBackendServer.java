package dev.svc.chat.samples.session;

import dev.svc.chat.samples.WebhookReceiver;
import dev.svc.chat.samples.WebhookReceiverMain;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.server.WebhookEvent;
import dev.svc.chat.server.WebhookVerifier;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.SameSite;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A tenant's backend ("BFF"): its own login, and the {@code /api/chat/session} route of seed.md that
 * mints a session token for the signed-in user with the API key, which never leaves this process.
 *
 * <ul>
 *   <li>{@code POST /login} with {@code {"user": "alice"}} signs in (a stand-in for a real login: no
 *       password) and sets the HttpOnly cookie {@code sid}.
 *   <li>{@code POST /logout} forgets the login.
 *   <li>{@code GET|POST /api/chat/session} answers {@code {token, apiUrl, chatUserId, expiresAt, displayName}}
 *       for the user of the cookie, never for a user named in the request; 401 without a login.
 *   <li>{@code POST /webhooks/svc}, once {@link #receiveWebhooks} mounted it: the service's signed webhooks,
 *       verified and deduplicated by {@link WebhookReceiver}.
 * </ul>
 *
 * Run: {@code SVC_API_URL=... SVC_API_KEY=sk_... [SVC_WEBHOOK_SECRET=whsec_...] java -cp svc-chat-demo.jar
 * dev.svc.chat.samples.session.TenantBackendServer [port]}, and point the tenant's {@code webhookUrl} at
 * {@code http://127.0.0.1:<port>/webhooks/svc}.
 */
public final class TenantBackendServer implements AutoCloseable {
  static final String COOKIE = "sid";
  private static final SecureRandom RANDOM = new SecureRandom();
  /** The contract's timestamps: ISO-8601 UTC with milliseconds. */
  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final ServerClient svc;
  private final Duration tokenLifetime;
  private final Map<String, String> logins = new ConcurrentHashMap<>();
  private final AtomicInteger sessionsMinted = new AtomicInteger();
  private final Javalin app;

  /**
   * Creates the backend; its tokens have the service's default lifetime, an hour.
   *
   * @param svc the API-key client of the service
   */
  public TenantBackendServer(ServerClient svc) {
    this(svc, null);
  }

  /**
   * Creates the backend.
   *
   * @param svc the API-key client of the service
   * @param tokenLifetime the lifetime of minted tokens (whole seconds, 1 s to a day)
   */
  public TenantBackendServer(ServerClient svc, Duration tokenLifetime) {
    this.svc = svc;
    this.tokenLifetime = tokenLifetime;
    this.app = Javalin.create(config -> config.showJavalinBanner = false);
    app.post("/login", this::login);
    app.post("/logout", this::logout);
    app.get("/api/chat/session", this::session);
    app.post("/api/chat/session", this::session);
  }

  /**
   * Mounts the webhook endpoint on {@link WebhookReceiverMain#PATH}; call before {@link #start}.
   *
   * @param verifier checks the signatures with the tenant's {@code whsec_} secret
   * @param onEvent receives each verified event once
   * @return this backend
   */
  public TenantBackendServer receiveWebhooks(WebhookVerifier verifier, Consumer<WebhookEvent> onEvent) {
    app.post(WebhookReceiverMain.PATH, new WebhookReceiver(verifier, onEvent));
    return this;
  }

  /** Starts listening on 127.0.0.1 and {@code port} (0: a free one). */
  public TenantBackendServer start(int port) {
    app.start("127.0.0.1", port);
    return this;
  }

  /** Returns the backend's base URL, such as {@code http://127.0.0.1:7070}. */
  public String url() {
    return "http://127.0.0.1:" + app.port();
  }

  /** Returns how many sessions the route minted. */
  public int sessionsMinted() {
    return sessionsMinted.get();
  }

  @Override
  public void close() {
    app.stop();
  }

  private void login(Context ctx) {
    String user = String.valueOf(ctx.bodyAsClass(Map.class).get("user"));
    if (!user.matches("[A-Za-z0-9_.@:-]{1,128}")) {
      ctx.status(400).json(Map.of("error", Map.of("code", "bad_request", "message", "invalid user")));
      return;
    }
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    String sid = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    logins.put(sid, user);
    Cookie cookie = new Cookie(COOKIE, sid);
    cookie.setHttpOnly(true);
    cookie.setPath("/");
    cookie.setSameSite(SameSite.LAX);
    ctx.cookie(cookie);
    ctx.json(Map.of("user", user));
  }

  private void logout(Context ctx) {
    String sid = ctx.cookie(COOKIE);
    if (sid != null) logins.remove(sid);
    ctx.removeCookie(COOKIE, "/");
    ctx.status(204);
  }

  private void session(Context ctx) {
    String sid = ctx.cookie(COOKIE);
    String user = sid == null ? null : logins.get(sid);
    if (user == null) {
      ctx.status(401).json(Map.of("error", Map.of("code", "unauthorized", "message", "not signed in")));
      return;
    }
    // the user comes from the login only: any userId in the request is ignored
    String displayName = Character.toUpperCase(user.charAt(0)) + user.substring(1);
    MintRequest.Builder mint = MintRequest.builder(user).username(displayName);
    if (tokenLifetime != null) mint.expiresIn(tokenLifetime);
    // minted without holding a Jetty thread: the answer is written when the service has answered
    ctx.future(() -> svc.mintTokenAsync(mint.build()).thenAccept(minted -> {
      sessionsMinted.incrementAndGet();
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("token", minted.token());
      body.put("apiUrl", minted.apiUrl());
      body.put("chatUserId", minted.userId());
      body.put("expiresAt", ISO_MILLIS.format(Instant.ofEpochMilli(minted.expiresAtMillis())));
      body.put("displayName", displayName);
      ctx.header("Cache-Control", "no-store").json(body);
    }));
  }

  /**
   * Runs the backend against the service of {@code SVC_API_URL} with the key {@code SVC_API_KEY}.
   *
   * @param args an optional port (default 7070)
   */
  public static void main(String[] args) {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 7070;
    TenantBackendServer backend = new TenantBackendServer(ServerClient.fromEnvironment());
    String secret = System.getenv("SVC_WEBHOOK_SECRET");
    if (secret != null && !secret.isEmpty()) {
      backend.receiveWebhooks(WebhookVerifier.create(secret),
          event -> System.out.println("webhook " + event.type() + " " + event.webhookId()));
    }
    backend.start(port);
    System.out.println("tenant backend at " + backend.url() + " (POST /login, GET /api/chat/session"
        + (secret != null && !secret.isEmpty() ? ", POST " + WebhookReceiverMain.PATH : "") + ")");
  }
}
