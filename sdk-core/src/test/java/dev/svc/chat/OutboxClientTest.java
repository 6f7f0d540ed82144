package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The outbox wired into the client: over HTTP against MockWebServer, with the client's actor on the calling
 * thread and its timers on virtual time.
 */
class OutboxClientTest {
  private static final Pattern CLIENT_MESSAGE_ID = Pattern.compile("\"clientMessageId\":\"([^\"]+)\"");

  private FakeGateway gateway;
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private final RecordingLogger logger = new RecordingLogger();
  private ChatClient client;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).engineExecutor(Runnable::run).scheduler(time)
        .reconnectDelay(100, 1_000).logger(logger).build());
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
    gateway.close();
  }

  private void connect() throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(connected);
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json").setBody(body);
  }

  @Test
  void aRateLimitedSendIsRetriedAfterRetryAfterWithTheSameId() throws Exception {
    connect();
    gateway.enqueueRest(json(429, "{\"error\":{\"code\":\"rate_limited\",\"message\":\"slow down\"}}")
        .setHeader("Retry-After", "3"));
    gateway.enqueueRest(json(201, Frames.messageJson("m1", "r1", 1, "hi")));
    CompletableFuture<Message> sent = client.sendText("r1", "hi");
    String first = clientMessageId(gateway.takeRest());
    Await.until("the 429 is read", () -> client.pendingSends().get(0).lastError() != null);
    ApiException limited = (ApiException) client.pendingSends().get(0).lastError();
    assertEquals(429, limited.status());
    assertEquals(3_000, limited.retryAfterMillis());
    time.advance(2_999);
    assertEquals(1, client.pendingSends().get(0).attempts(), "retried before Retry-After");
    time.advance(1);
    assertEquals(first, clientMessageId(gateway.takeRest()));
    assertEquals("m1", Await.value(sent).id());
    assertTrue(client.pendingSends().isEmpty());
  }

  @Test
  void aFailedAttemptIsShownOnlyOnceItsRetryIsArmed() throws Exception {
    // an app (or a test) that sees the failure and moves the clock past Retry-After must see the retry go out
    final AtomicReference<ChatClient> watched = new AtomicReference<>();
    final List<String> shownWhenArmed = new CopyOnWriteArrayList<>();
    TaskScheduler watching = new TaskScheduler() {
      @Override
      public long nowMillis() {
        return time.nowMillis();
      }

      @Override
      public Cancellable schedule(Runnable task, long delayMillis) {
        ChatClient c = watched.get();
        if (delayMillis == 3_000 && c != null && !c.pendingSends().isEmpty()) {
          shownWhenArmed.add(String.valueOf(c.pendingSends().get(0).lastError()));
        }
        return time.schedule(task, delayMillis);
      }
    };
    client.close();
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).engineExecutor(Runnable::run)
        .scheduler(watching).reconnectDelay(100, 1_000).build());
    connect();
    watched.set(client);
    gateway.enqueueRest(json(429, "{\"error\":{\"code\":\"rate_limited\",\"message\":\"slow down\"}}")
        .setHeader("Retry-After", "3"));
    gateway.enqueueRest(json(201, Frames.messageJson("m1", "r1", 1, "hi")));
    CompletableFuture<Message> sent = client.sendText("r1", "hi");
    gateway.takeRest();
    Await.until("the 429 is read", () -> client.pendingSends().get(0).lastError() != null);
    assertEquals(Collections.singletonList("null"), shownWhenArmed, "the failure was shown before its retry was armed");
    time.advance(3_000);
    assertEquals("m1", Await.value(sent).id());
  }

  @Test
  void aSendWhileDisconnectedWaitsForTheConnection() throws Exception {
    connect();
    Await.value(client.disconnect());
    CompletableFuture<Message> sent = client.sendText("r1", "hi");
    // the actor runs on the calling thread, unless the closed socket's reader thread is still in it
    Await.until("the send is queued", () -> !client.pendingSends().isEmpty());
    PendingSend pending = client.pendingSends().get(0);
    assertEquals(0, pending.attempts()); // disconnected: nothing was sent
    assertEquals("r1", pending.roomId());
    assertEquals(pending, client.pendingSends("r1").get(0));
    assertTrue(client.pendingSends("r2").isEmpty());
    gateway.enqueueRest(json(201, Frames.messageJson("m1", "r1", 1, "hi")));
    connect();
    RecordedRequest request = gateway.takeRest();
    assertEquals(pending.clientMessageId(), clientMessageId(request));
    assertEquals("m1", Await.value(sent).id());
  }

  @Test
  void aRefusalFailsTheSendWithTheApiException() throws Exception {
    connect();
    gateway.enqueueRest(json(403, "{\"error\":{\"code\":\"forbidden\",\"message\":\"not a member\"}}"));
    ApiException e = Await.failure(client.sendText("r1", "hi"), ApiException.class);
    assertEquals("forbidden", e.code());
    assertEquals(-1, e.retryAfterMillis());
    assertTrue(client.pendingSends().isEmpty());
  }

  @Test
  void closeFailsPendingSends() throws Exception {
    connect();
    Await.value(client.disconnect());
    CompletableFuture<Message> sent = client.sendText("r1", "hi");
    client.close();
    assertEquals("the client is closed", Await.failure(sent, ChatStateException.class).getMessage());
    assertTrue(client.pendingSends().isEmpty());
    assertEquals("the client is closed",
        Await.failure(client.sendText("r1", "again"), ChatStateException.class).getMessage());
  }

  @Test
  void theDeadlineOfTheOptionsApplies() throws Exception {
    client.close();
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).engineExecutor(Runnable::run).scheduler(time)
        .sendTimeoutMillis(2_000).build());
    connect();
    Await.value(client.disconnect());
    CompletableFuture<Message> sent = client.sendText("r1", "hi");
    // the actor runs on the calling thread, unless the closed socket's reader thread is still in it: the
    // deadline's timer is armed once the send is queued
    Await.until("the send is queued", () -> !client.pendingSends().isEmpty());
    time.advance(1_999);
    assertFalse(sent.isDone());
    time.advance(1);
    SendTimeoutException e = Await.failure(sent, SendTimeoutException.class);
    assertNull(e.getCause());
    assertTrue(client.pendingSends().isEmpty());
  }

  @Test
  void outboxOptionsAreCheckedWhereSet() {
    SvcOptions defaults = SvcOptions.builder("http://h/v1").build();
    assertEquals(0, defaults.sendTimeoutMillis());
    assertNull(defaults.outboxDirectory());
    SvcOptions.Builder b = SvcOptions.builder("http://h/v1");
    assertThrows(IllegalArgumentException.class, () -> b.sendTimeoutMillis(-1));
    assertThrows(NullPointerException.class, () -> b.outboxDirectory(null));
    SvcOptions set = b.sendTimeoutMillis(5).outboxDirectory(new java.io.File("x")).build();
    assertEquals(5, set.sendTimeoutMillis());
    assertEquals(new java.io.File("x"), set.outboxDirectory());
  }

  private static String clientMessageId(RecordedRequest request) {
    Matcher m = CLIENT_MESSAGE_ID.matcher(request.getBody().readUtf8());
    assertTrue(m.find());
    return m.group(1);
  }
}
