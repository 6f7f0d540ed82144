package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every refusal a client can meet (the reference server's AuthMatrixTest lists them: bad, forged or foreign
 * tokens, claims in the future or lifetimes over 24 h, non-canonical signatures, all {@code 401 unauthorized};
 * an expired token, {@code 401 token_expired}; another user in a body, {@code 403 Cannot act as another user};
 * duplicate keys, {@code 400}; oversized bodies, {@code 413}; another tenant's room, {@code 404}) ends the
 * app's future with a typed {@link ApiException}, or the connection in a typed state, and is never retried
 * in a loop: the requests and handshakes the gateway saw are counted over ten minutes of virtual time.
 */
class RefusalMatrixTest {
  private static final long TEN_MINUTES = 10 * 60_000;
  /** How long a negative check waits for a request or a socket that should not come (real time). */
  private static final long QUIET_MILLIS = 500;

  private FakeGateway gateway;
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private final RecordingLogger logger = new RecordingLogger();
  private final List<ChatClient> clients = new ArrayList<>();
  /** REST requests seen, by the token they carried. */
  private final Map<String, AtomicInteger> requestsByToken = new ConcurrentHashMap<>();
  private final AtomicInteger refreshes = new AtomicInteger();
  /** Every REST request seen, for the negative check at the end. */
  private final BlockingQueue<String> seen = new LinkedBlockingQueue<>();

  /** A refusal as the service answers it, and how many REST requests one call may cost. */
  private static final class Refusal {
    final String name;
    final int status;
    final String code;
    final String message;
    /** What the client's TokenRefresher answers: null for no refresher. */
    final Function<String, CompletableFuture<String>> refresher;
    final int requestsPerCall;

    Refusal(String name, int status, String code, String message,
        Function<String, CompletableFuture<String>> refresher, int requestsPerCall) {
      this.name = name;
      this.status = status;
      this.code = code;
      this.message = message;
      this.refresher = refresher;
      this.requestsPerCall = requestsPerCall;
    }

    String body() {
      return "{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message + "\"}}";
    }
  }

  private static CompletableFuture<String> failed() {
    CompletableFuture<String> f = new CompletableFuture<>();
    f.completeExceptionally(new ApiException(401, "unauthorized", "signed out of the backend")); // a refusal
    return f;
  }

  private static List<Refusal> refusals() {
    return Arrays.asList(
        new Refusal("invalid token", 401, "unauthorized", "invalid token", token -> CompletableFuture
            .completedFuture(token + "-fresh"), 1), // a refresher is installed, and never asked
        new Refusal("expired, no refresher", 401, "token_expired", "the token expired", null, 1),
        new Refusal("expired, the refresh fails", 401, "token_expired", "the token expired",
            token -> failed(), 1),
        new Refusal("expired, the fresh token expired too", 401, "token_expired", "the token expired",
            token -> CompletableFuture.completedFuture(token + "-fresh"), 2),
        new Refusal("another user in the body", 403, "forbidden", "Cannot act as another user", null, 1),
        new Refusal("duplicate keys", 400, "bad_request", "Duplicate field name in a JSON object", null, 1),
        new Refusal("body too large", 413, "payload_too_large", "body over 65536 bytes", null, 1),
        new Refusal("another tenant's room", 404, "not_found", "no such room", null, 1));
  }

  /** The app's REST operations, each against the refusing service. */
  private static Map<String, Function<ChatClient, CompletableFuture<?>>> operations() {
    List<MessagePart> parts = Collections.singletonList(MessagePart.text("x"));
    Map<String, Function<ChatClient, CompletableFuture<?>>> ops = new LinkedHashMap<>();
    ops.put("listRooms", c -> c.listRooms());
    ops.put("getMessages", c -> c.getMessages("r1"));
    ops.put("sendText", c -> c.sendText("r1", "hi"));
    ops.put("sendMessage", c -> c.sendMessage("r1", parts, "cmid-1"));
    ops.put("updateMessage", c -> c.updateMessage("r1", "m1", parts));
    ops.put("deleteMessage", c -> c.deleteMessage("r1", "m1"));
    ops.put("toggleReaction", c -> c.toggleReaction("r1", "m1", "+1"));
    ops.put("markRead", c -> c.markRead("r1", "m1"));
    ops.put("getChanges", c -> c.getChanges("r1", 0));
    ops.put("getReceipts", c -> c.getReceipts("r1"));
    ops.put("getPresence", c -> c.getPresence());
    ops.put("startCall", c -> c.startCall("r1", CallKind.AUDIO));
    ops.put("acceptCall", c -> c.acceptCall("c1"));
    ops.put("getActiveCall", c -> c.getActiveCall("r1"));
    ops.put("registerDeviceToken", c -> c.registerDeviceToken("device-1", PushPlatform.FCM));
    ops.put("unregisterDeviceToken", c -> c.unregisterDeviceToken("device-1"));
    return ops;
  }

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
  }

  @AfterEach
  void tearDown() throws Exception {
    for (ChatClient c : clients) c.close();
    gateway.close();
    assertFalse(logger.mentions("jwt-"), "a token was logged");
  }

  private ChatClient client(boolean socketSends, Function<String, CompletableFuture<String>> refresher,
      String token) {
    SvcOptions.Builder b = SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false)
        .engineExecutor(Runnable::run).scheduler(time).reconnectDelay(1_000, 30_000).socketSends(socketSends)
        .logger(logger);
    if (refresher != null) {
      b.tokenRefresher(() -> {
        refreshes.incrementAndGet();
        return refresher.apply(token);
      });
    }
    ChatClient c = Svc.init(b.build());
    clients.add(c);
    return c;
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json").setBody(body);
  }

  private int requests(String token) {
    AtomicInteger n = requestsByToken.get(token);
    return n == null ? 0 : n.get();
  }

  @Test
  void everyRestOperationEndsWithTheTypedRefusalAndIsNeverRetried() throws Exception {
    final Map<String, Refusal> refusalByToken = new ConcurrentHashMap<>();
    gateway.rest = request -> {
      String auth = String.valueOf(request.getHeader("Authorization")).replace("Bearer ", "");
      requestsByToken.computeIfAbsent(auth, t -> new AtomicInteger()).incrementAndGet();
      seen.add(request.getMethod() + " " + request.getPath());
      Refusal r = refusalByToken.get(auth.replace("-fresh", ""));
      return r == null ? json(500, "{}") : json(r.status, r.body());
    };
    List<String> wrong = new ArrayList<>();
    int i = 0;
    for (Refusal r : refusals()) {
      String token = "jwt-" + i++;
      refusalByToken.put(token, r);
      ChatClient c = client(false, r.refresher, token);
      Await.value(c.connect("alice", token));
      for (Map.Entry<String, Function<ChatClient, CompletableFuture<?>>> op : operations().entrySet()) {
        String what = op.getKey() + " refused with " + r.name;
        int before = requests(token) + requests(token + "-fresh");
        try {
          CompletableFuture<?> result = op.getValue().apply(c);
          if (op.getKey().equals("getActiveCall") && r.status == 404) {
            // documented: no active call (or none visible) completes with null
            if (Await.value(result) != null) wrong.add(what + ": not null");
            continue;
          }
          ApiException e = Await.failure(result, ApiException.class);
          if (e.status() != r.status || !r.code.equals(e.code()) || !r.message.equals(e.getMessage())) {
            wrong.add(what + ": " + e);
          }
        } catch (AssertionError e) {
          wrong.add(what + ": " + e.getMessage());
        }
        int seen = requests(token) + requests(token + "-fresh") - before;
        if (seen != r.requestsPerCall) wrong.add(what + ": " + seen + " requests, not " + r.requestsPerCall);
      }
      assertTrue(c.pendingSends().isEmpty(), r.name + ": a refused send stays in the outbox");
    }
    assertTrue(wrong.isEmpty(), wrong.size() + " wrong, the first: " + wrong.subList(0, Math.min(8, wrong.size())));
    // ten minutes later nothing was tried again: no backoff timer, no refresh loop
    seen.clear();
    time.advance(TEN_MINUTES);
    assertNull(seen.poll(QUIET_MILLIS, TimeUnit.MILLISECONDS), "a refused request was tried again");
    // one refresh per expired call where a refresher exists (the failing one, and the one whose token expired too)
    assertEquals(2 * operations().size(), refreshes.get());
  }

  // ---------------------------------------------------------------- the gateway's refusals

  private static String connectError(String code) {
    return "44{\"message\":\"" + code + "\",\"data\":{\"code\":\"" + code + "\"}}";
  }

  /**
   * Connects through a gateway that refuses every handshake with {@code code}, and asserts the typed end:
   * the connect future fails with the refusal, the state is DISCONNECTED with {@code reason}, the gateway saw
   * {@code handshakes} handshakes and the refresher {@code refreshed} calls, and ten minutes later nothing more.
   */
  private void assertRefusedForGood(String code, Function<String, CompletableFuture<String>> refresher,
      ConnectionReason reason, int handshakes, int refreshed) throws Exception {
    gateway.onConnect = auth -> connectError(code);
    ChatClient c = client(true, refresher, "jwt-g");
    EventRecorder events = EventRecorder.attach(c);
    CompletableFuture<Void> connected = c.connect("alice", "jwt-g");
    for (int i = 0; i < handshakes; i++) gateway.nextSession().awaitConnect();
    ConnectionStateChange end = events.awaitState(ConnectionState.DISCONNECTED);
    assertEquals(reason, end.reason(), end.toString());
    ApiException cause = assertInstanceOf(ApiException.class, end.cause());
    assertEquals(code, cause.code());
    assertEquals(code, Await.failure(connected, ApiException.class).code());
    time.advance(TEN_MINUTES);
    assertNull(gateway.pollSession(QUIET_MILLIS), "a handshake after the refusal"); // load can only hide a bug here
    assertEquals(ConnectionState.DISCONNECTED, c.state());
    assertEquals(refreshed, refreshes.get(), "refreshes");
  }

  @Test
  void anInvalidTokenIsTriedOnceAndNeverRefreshed() throws Exception {
    // every forged, foreign, future-dated, over-long or non-canonical token is refused so
    assertRefusedForGood("unauthorized", token -> CompletableFuture.completedFuture(token + "-fresh"),
        ConnectionReason.UNAUTHORIZED, 1, 0);
  }

  @Test
  void anExpiredTokenWithoutARefresherIsTriedOnce() throws Exception {
    assertRefusedForGood("token_expired", null, ConnectionReason.TOKEN_EXPIRED, 1, 0);
  }

  @Test
  void anExpiredTokenWhoseRefreshFailsIsTriedOnce() throws Exception {
    assertRefusedForGood("token_expired", token -> failed(), ConnectionReason.TOKEN_EXPIRED, 1, 1);
  }

  @Test
  void anExpiredTokenWhoseFreshTokenIsRefusedTooIsTriedTwice() throws Exception {
    assertRefusedForGood("token_expired", token -> CompletableFuture.completedFuture(token + "-fresh"),
        ConnectionReason.TOKEN_EXPIRED, 2, 1);
  }

  @Test
  void anotherRefusalIsTriedOnce() throws Exception {
    assertRefusedForGood("forbidden", null, ConnectionReason.REFUSED, 1, 0);
  }

  @Test
  void aSessionExpiredWhoseRefreshFailsEndsDisconnected() throws Exception {
    ChatClient c = client(true, token -> failed(), "jwt-g");
    EventRecorder events = EventRecorder.attach(c);
    CompletableFuture<Void> connected = c.connect("alice", "jwt-g");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    session.send("42[\"session-expired\",{\"code\":\"token_expired\"}]");
    session.send("41");
    ConnectionStateChange end = events.awaitState(ConnectionState.DISCONNECTED);
    assertEquals(ConnectionReason.TOKEN_EXPIRED, end.reason());
    assertEquals("token_expired", assertInstanceOf(ApiException.class, end.cause()).code());
    // worded as the service words the same refusal on REST
    assertEquals("The session token has expired", end.cause().getMessage());
    time.advance(TEN_MINUTES);
    assertNull(gateway.pollSession(QUIET_MILLIS), "a handshake after the refusal"); // load can only hide a bug here
    assertEquals(1, refreshes.get());
  }

  /**
   * A refresher that fails for a while (the tenant's backend is down: a network error, or a 5xx answer) has not
   * refused the user: the client stays RECONNECTING, says why and when it asks again, asks again after the
   * capped reconnect backoff, and connects with the token the refresher gives once the backend is back.
   */
  @Test
  void aRefreshThatFailsOnTheNetworkOrWithA5xxIsRetriedWithBackoffWhileReconnecting() throws Exception {
    List<Throwable> outages = Arrays.asList(new TransportException("the backend is unreachable"),
        new java.io.IOException("connection reset"), new ApiException(503, "unavailable", "try again later"));
    for (Throwable outage : outages) {
      AtomicInteger calls = new AtomicInteger();
      ChatClient c = client(true, token -> {
        if (calls.incrementAndGet() <= 2) { // down for two attempts, then back
          CompletableFuture<String> f = new CompletableFuture<>();
          f.completeExceptionally(outage);
          return f;
        }
        return CompletableFuture.completedFuture(token + "-fresh");
      }, "jwt-g");
      EventRecorder events = EventRecorder.attach(c);
      CompletableFuture<Void> connected = c.connect("alice", "jwt-g");
      GatewaySession session = gateway.nextSession();
      session.awaitConnect();
      Await.value(connected);
      events.awaitState(ConnectionState.CONNECTED);
      session.send("42[\"session-expired\",{\"code\":\"token_expired\"}]");
      session.send("41");
      assertEquals("token_expired", events.assertNextState(ConnectionState.RECONNECTING).reason().code());
      for (int attempt = 1; attempt <= 2; attempt++) {
        ConnectionStateChange failed = events.assertNextState(ConnectionState.RECONNECTING);
        assertEquals("token_refresh_failed", failed.reason().code(), outage + ": " + failed);
        assertEquals(outage.getClass(), failed.cause().getClass(), failed.toString());
        long delay = failed.retryDelayMillis();
        assertTrue(delay >= 0 && delay <= 30_000, "delay " + delay);
        assertEquals(attempt, calls.get());
        long due = time.nowMillis() + delay;
        Await.until("the refresh's retry is armed", () -> time.hasTaskDueAt(due));
        time.advance(delay);
      }
      assertEquals("{\"token\":\"jwt-g-fresh\"}", gateway.nextSession().awaitConnect());
      events.assertNextState(ConnectionState.CONNECTED);
      assertEquals(3, calls.get());
      c.close();
    }
  }

  @Test
  void reconnectNowAsksAgainAtOnceForARefreshThatFailed() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    ChatClient c = client(true, token -> {
      CompletableFuture<String> f = new CompletableFuture<>();
      if (calls.incrementAndGet() == 1) {
        f.completeExceptionally(new TransportException("the backend is unreachable"));
      } else {
        f.complete(token + "-fresh");
      }
      return f;
    }, "jwt-g");
    EventRecorder events = EventRecorder.attach(c);
    Await.value(c.connect("alice", "jwt-g"));
    GatewaySession session = gateway.nextSession();
    events.awaitState(ConnectionState.CONNECTED);
    session.send("42[\"session-expired\",{\"code\":\"token_expired\"}]");
    session.send("41");
    ConnectionStateChange failed = events.awaitState(ConnectionState.RECONNECTING);
    while (failed.reason() != ConnectionReason.TOKEN_REFRESH_FAILED) {
      failed = events.awaitState(ConnectionState.RECONNECTING);
    }
    long due = time.nowMillis() + failed.retryDelayMillis();
    Await.until("the refresh's retry is armed", () -> time.hasTaskDueAt(due));
    c.reconnectNow(); // the network is back (Android's NetworkCallback): no need to wait out the backoff
    assertEquals("{\"token\":\"jwt-g-fresh\"}", gateway.nextSession().awaitConnect());
    events.awaitState(ConnectionState.CONNECTED);
    assertEquals(2, calls.get());
  }

  /**
   * A gateway that fails (a CONNECT_ERROR with a 5xx-class code such as {@code internal}, or
   * {@code rate_limited}) has not judged the token: the client retries with its capped backoff, RECONNECTING,
   * and keeps the failure as the cause. Over ten minutes with delays of at most 30 s drawn with full jitter,
   * the handshakes number a few dozen; 200 would take a mean delay under 3 s.
   */
  @Test
  void aGatewayThatFailsTheHandshakeIsRetriedWithCappedBackoff() throws Exception {
    for (String code : Arrays.asList("internal", "rate_limited")) {
      gateway.onConnect = auth -> connectError(code);
      ChatClient c = client(true, null, "jwt-g");
      EventRecorder events = EventRecorder.attach(c);
      CompletableFuture<Void> connected = c.connect("alice", "jwt-g");
      int handshakes = 0;
      long elapsed = 0;
      while (true) {
        gateway.nextSession().awaitConnect();
        handshakes++;
        ConnectionStateChange lost = events.awaitState(ConnectionState.RECONNECTING);
        assertEquals(ConnectionReason.HANDSHAKE_FAILED, lost.reason(), lost.toString());
        assertEquals(code, assertInstanceOf(ApiException.class, lost.cause()).code());
        long delay = lost.retryDelayMillis();
        assertTrue(delay >= 0 && delay <= 30_000, "delay " + delay);
        if (elapsed + delay > TEN_MINUTES) break;
        elapsed += delay;
        long due = time.nowMillis() + delay;
        // the state change is published before the actor (here a socket's thread) arms the timer
        Await.until("the reconnect timer is armed", () -> time.hasTaskDueAt(due));
        time.advance(delay);
      }
      assertTrue(handshakes >= 2 && handshakes <= 200, code + ": " + handshakes + " handshakes in ten minutes");
      assertNotNull(Await.failure(connected, TransportException.class).getCause());
      c.close();
    }
  }

  // ---------------------------------------------------------------- refusals in acknowledgements

  @Test
  void aSocketSendOrJoinRefusedInItsAckEndsWithTheApiExceptionAndIsNotRetried() throws Exception {
    gateway.onConnect = auth -> "40{\"sid\":\"s\",\"svc\":{\"sendMessage\":true}}"; // offers socket sends
    ChatClient c = client(true, null, "jwt-s");
    CompletableFuture<Void> connected = c.connect("alice", "jwt-s");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    String[][] refusals = {
        {"403", "forbidden", "Cannot act as another user"},
        {"400", "bad_request", "Duplicate field name in a JSON object"},
        {"413", "payload_too_large", "body over 65536 bytes"},
        {"401", "unauthorized", "invalid token"}};
    for (String[] r : refusals) {
      String nack = "{\"ok\":false,\"error\":{\"code\":\"" + r[1] + "\",\"message\":\"" + r[2] + "\"}}";
      CompletableFuture<Message> sent = c.sendText("r1", "hi");
      session.ack(session.nextEmit("send-message"), nack);
      ApiException e = Await.failure(sent, ApiException.class);
      assertEquals(Integer.parseInt(r[0]), e.status(), e.toString());
      assertEquals(r[1], e.code());
      assertEquals(r[2], e.getMessage());
      CompletableFuture<Room> joined = c.joinRoom("r1");
      session.ack(session.nextEmit("join-room"), nack);
      assertEquals(r[1], Await.failure(joined, ApiException.class).code());
      assertTrue(c.pendingSends().isEmpty(), r[1] + ": the refused send stays in the outbox");
      // a typing emit made now passes the client's actor after anything else it had to send: it must come next
      CompletableFuture<Void> marker = c.setTyping("r1", true);
      try {
        session.ack(session.nextEmit("typing"), "{\"ok\":true}");
      } catch (AssertionError more) {
        throw new AssertionError(r[1] + ": the client sent more after the refusal: " + more.getMessage(), more);
      }
      Await.value(marker);
    }
  }
}
