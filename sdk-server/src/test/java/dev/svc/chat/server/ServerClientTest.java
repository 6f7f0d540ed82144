package dev.svc.chat.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The API-key client against a scripted server: what it sends, how it reads answers and refusals, its futures. */
class ServerClientTest {
  private static final String KEY = "sk_test_secret123";
  private static final String TOKEN_ANSWER = "{\"token\":\"a.b.c\",\"expiresAt\":\"2026-11-21T10:05:00.000Z\","
      + "\"apiUrl\":\"http://svc/v1\",\"userId\":\"bot\",\"username\":\"Bot\",\"extra\":true}";
  private static final String ROOM_ANSWER = "{\"id\":\"r1\",\"name\":\"team\",\"memberIds\":[\"alice\",\"bob\"],"
      + "\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"lastMessageSeq\":0,\"rev\":0}";

  private final MockWebServer server = new MockWebServer();
  private final ExecutorService callbacks = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-callbacks"));
  private ServerClient svc;

  @BeforeEach
  void setUp() throws IOException {
    server.start();
    svc = ServerClient.create(server.url("/v1").toString(), KEY);
  }

  @AfterEach
  void tearDown() throws IOException {
    callbacks.shutdownNow();
    server.shutdown();
  }

  private RecordedRequest taken() throws InterruptedException {
    RecordedRequest r = server.takeRequest(30, TimeUnit.SECONDS);
    if (r == null) throw new AssertionError("no request within 30 s");
    return r;
  }

  @Test
  void mintsWithAnOptionsObjectAndWithAUserIdAlone() throws Exception {
    server.enqueue(new MockResponse().setBody(TOKEN_ANSWER));
    server.enqueue(new MockResponse().setBody(TOKEN_ANSWER));
    MintedToken t = svc.mintToken(MintRequest.builder("bot").username("Bot").expiresIn(Duration.ofMinutes(5)).build());
    assertEquals("a.b.c", t.token());
    assertEquals(Instant.parse("2026-11-21T10:05:00Z").toEpochMilli(), t.expiresAtMillis());
    assertEquals("Bot", t.username());
    RecordedRequest first = taken();
    assertEquals("POST /v1/auth/token HTTP/1.1", first.getRequestLine());
    assertEquals(KEY, first.getHeader("x-api-key"));
    assertEquals("{\"userId\":\"bot\",\"username\":\"Bot\",\"expiresIn\":300}", first.getBody().readUtf8());

    svc.mintToken("bot");
    assertEquals("{\"userId\":\"bot\"}", taken().getBody().readUtf8());
  }

  @Test
  void mintRequestsAreCheckedWhereTheyAreSet() {
    assertThrows(IllegalArgumentException.class, () -> MintRequest.builder("not allowed/"));
    assertThrows(IllegalArgumentException.class, () -> MintRequest.builder("a").expiresIn(Duration.ofDays(2)));
    assertThrows(IllegalArgumentException.class, () -> MintRequest.builder("a").expiresIn(Duration.ofMillis(1500)));
    assertThrows(IllegalArgumentException.class, () -> MintRequest.builder("a").expiresIn(Duration.ZERO));
    assertNull(MintRequest.of("a").expiresIn());
    assertThrows(IllegalArgumentException.class, () -> ServerClient.create(server.url("/v1").toString(), "eyJ.jwt"));
    // a null would otherwise be left out of the body and change the request (an unnamed room, a kept name)
    assertThrows(NullPointerException.class, () -> svc.createRoom((String) null, List.of("a")));
    assertThrows(NullPointerException.class, () -> svc.upsertUserAsync("a", null));
    assertEquals(0, server.getRequestCount(), "nothing was sent");
  }

  @Test
  void asyncFuturesCompleteOnTheCallbackExecutor() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        release.await(30, TimeUnit.SECONDS); // answer only once the test has chained its stage
        return new MockResponse().setBody(ROOM_ANSWER);
      }
    });
    ServerClient async = ServerClient.builder(server.url("/v1").toString(), KEY).callbackExecutor(callbacks).build();
    AtomicReference<String> completedOn = new AtomicReference<>();
    CompletableFuture<ChatRoom> room = async.createRoomAsync("team", List.of("alice", "bob"));
    CompletableFuture<ChatRoom> seen = room.whenComplete((r, e) -> completedOn.set(Thread.currentThread().getName()));
    release.countDown();
    assertEquals(List.of("alice", "bob"), seen.get(30, TimeUnit.SECONDS).memberIds());
    assertEquals("test-callbacks", completedOn.get());
    assertEquals("{\"name\":\"team\",\"memberIds\":[\"alice\",\"bob\"]}", taken().getBody().readUtf8());
  }

  @Test
  void withoutAnExecutorFuturesCompleteOnTheDispatcherThread() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        release.await(30, TimeUnit.SECONDS);
        return new MockResponse().setBody(TOKEN_ANSWER);
      }
    });
    AtomicReference<String> completedOn = new AtomicReference<>();
    AtomicReference<Boolean> daemon = new AtomicReference<>();
    CompletableFuture<MintedToken> t = svc.mintTokenAsync("bot").whenComplete((r, e) -> {
      completedOn.set(Thread.currentThread().getName());
      daemon.set(Thread.currentThread().isDaemon());
    });
    release.countDown();
    assertEquals("a.b.c", t.get(30, TimeUnit.SECONDS).token());
    // OkHttp names its Dispatcher thread for the call while it runs one
    assertTrue(completedOn.get().startsWith("OkHttp "), completedOn.get());
    assertTrue(daemon.get(), "the shared client's threads never keep a JVM alive");
  }

  @Test
  void refusalsAreTypedInBothForms() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(401)
        .setBody("{\"error\":{\"code\":\"unauthorized\",\"message\":\"bad key\"}}"));
    ServerApiException e = assertThrows(ServerApiException.class, () -> svc.tenantSettings());
    assertEquals(401, e.status());
    assertEquals("unauthorized", e.code());
    assertEquals("bad key", e.getMessage());
    assertEquals(-1, e.retryAfterMillis());

    server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "7")
        .setBody("{\"error\":{\"code\":\"rate_limited\",\"message\":\"slow down\"}}"));
    ExecutionException failed = assertThrows(ExecutionException.class,
        () -> svc.getUserAsync("bob").get(30, TimeUnit.SECONDS));
    ServerApiException limited = assertInstanceOf(ServerApiException.class, failed.getCause());
    assertEquals("rate_limited", limited.code());
    assertEquals(7000, limited.retryAfterMillis());

    server.enqueue(new MockResponse().setResponseCode(502).setBody("<html>bad gateway</html>"));
    assertEquals("http_502", assertThrows(ServerApiException.class, () -> svc.getUser("bob")).code());

    server.enqueue(new MockResponse().setBody("{\"userId\":\"bob\"}"));
    ServerException unreadable = assertThrows(ServerException.class, () -> svc.getUser("bob"));
    assertTrue(unreadable.getMessage().contains("createdAt"), unreadable.getMessage());
  }

  @Test
  void aNetworkFailureIsATransportExceptionWithoutTheKey() throws Exception {
    ServerClient unreachable = ServerClient.create(server.url("/v1").toString(), KEY);
    server.shutdown();
    ServerTransportException e = assertThrows(ServerTransportException.class, () -> unreachable.getUser("bob"));
    assertTrue(e.getMessage().startsWith("GET /v1/users/bob failed"), e.getMessage());
    ExecutionException async = assertThrows(ExecutionException.class,
        () -> unreachable.tenantSettingsAsync().get(30, TimeUnit.SECONDS));
    assertInstanceOf(ServerTransportException.class, async.getCause());
    assertFalse(e.getMessage().contains(KEY));
    assertFalse(unreachable.toString().contains(KEY));
  }

  @Test
  void cancellingAFutureCancelsItsCall() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch arrived = new CountDownLatch(1);
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        arrived.countDown();
        release.await(30, TimeUnit.SECONDS);
        return new MockResponse().setBody(ROOM_ANSWER);
      }
    });
    BlockingQueue<Call> canceled = new LinkedBlockingQueue<>();
    OkHttpClient http = new OkHttpClient.Builder().eventListener(new EventListener() {
      @Override
      public void canceled(Call call) {
        canceled.add(call);
      }
    }).build();
    try {
      ServerClient withHttp = ServerClient.builder(server.url("/v1").toString(), KEY).okHttpClient(http).build();
      CompletableFuture<ChatRoom> f = withHttp.addMembersAsync("r 1", List.of("carol"));
      assertTrue(arrived.await(30, TimeUnit.SECONDS), "the request never arrived");
      f.cancel(true);
      Call call = canceled.poll(30, TimeUnit.SECONDS);
      assertEquals("/v1/chat/rooms/r%201/members", call.request().url().encodedPath());
    } finally {
      release.countDown();
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
  }

  @Test
  void tenantSettingsChangeOnlyWhatTheUpdateSets() throws Exception {
    String answer = "{\"autoCreateUsers\":false,\"callsEnabled\":true,\"webhookUrl\":null}";
    server.enqueue(new MockResponse().setBody(answer));
    server.enqueue(new MockResponse().setBody(answer));
    TenantSettings s = svc.updateTenantSettings(TenantSettingsUpdate.builder().autoCreateUsers(false)
        .webhookUrl("https://example.com/hooks").build());
    assertFalse(s.autoCreateUsers());
    assertTrue(s.callsEnabled());
    assertNull(s.webhookUrl());
    RecordedRequest patch = taken();
    assertEquals("PATCH", patch.getMethod());
    assertEquals("{\"autoCreateUsers\":false,\"webhookUrl\":\"https://example.com/hooks\"}", patch.getBody().readUtf8());
    svc.updateTenantSettingsAsync(TenantSettingsUpdate.builder().removeWebhookUrl().build()).get(30, TimeUnit.SECONDS);
    assertEquals("{\"webhookUrl\":null}", taken().getBody().readUtf8());
  }

  @Test
  void takesTheOriginAloneAsTheApiUrl() throws Exception {
    String origin = server.url("/").toString(); // http://host:port/
    for (String url : new String[] {origin, origin.substring(0, origin.length() - 1)}) {
      server.enqueue(new MockResponse().setBody(TOKEN_ANSWER));
      ServerClient.create(url, KEY).mintToken("bot");
      assertEquals("POST /v1/auth/token HTTP/1.1", taken().getRequestLine(), url);
    }
    server.enqueue(new MockResponse().setBody(TOKEN_ANSWER));
    ServerClient.create(server.url("/v1/").toString(), KEY).mintToken("bot");
    assertEquals("POST /v1/auth/token HTTP/1.1", taken().getRequestLine());
  }

  @Test
  void refusesAnotherPathSayingWhatToWrite() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ServerClient.create("http://127.0.0.1:8080/api", KEY));
    assertEquals("the API URL is the origin alone or ends with /v1 (write http://127.0.0.1:8080/api/v1 or "
        + "http://127.0.0.1:8080): http://127.0.0.1:8080/api", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ServerClient.create("http://h/v1?x=1", KEY));
  }
}
