package dev.svc.chat.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.ApiException;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.TransportException;
import dev.svc.chat.testing.Await;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The session manager on virtual time, with a fake client: schedule, single flight, errors, offline. */
class SessionManagerTest {
  private static final long MINUTE = 60_000;
  private final VirtualScheduler time = new VirtualScheduler();
  private final List<SessionStatus> statuses = new CopyOnWriteArrayList<>();
  private final List<FakeChatClient> clients = new ArrayList<>();
  private final AtomicInteger fetches = new AtomicInteger();
  /** The fetcher's answers, in order; when empty, a session of {@link #lifetime}. */
  private final List<Object> answers = new CopyOnWriteArrayList<>();
  private long lifetime = 60 * MINUTE;
  private SessionManager manager;

  private SessionManager manager(SessionFetcher fetcher) {
    manager = SessionManager.builder(fetcher, s -> statuses.add(s.status()))
        .scheduler(time)
        .callbackExecutor(Runnable::run)
        .clientFactory(options -> {
          FakeChatClient c = new FakeChatClient(options);
          clients.add(c);
          return c;
        })
        .build();
    return manager;
  }

  private SessionFetcher fetcher() {
    return () -> {
      int n = fetches.incrementAndGet();
      Object answer = answers.isEmpty() ? null : answers.remove(0);
      if (answer instanceof CompletableFuture) {
        @SuppressWarnings("unchecked")
        CompletableFuture<Session> f = (CompletableFuture<Session>) answer;
        return f;
      }
      if (answer instanceof RuntimeException) {
        CompletableFuture<Session> f = new CompletableFuture<>();
        f.completeExceptionally((RuntimeException) answer);
        return f;
      }
      return CompletableFuture.completedFuture(session(n));
    };
  }

  private Session session(int n) {
    return Session.builder("jwt-" + n, "http://127.0.0.1:1/v1", "alice", time.nowMillis() + lifetime).build();
  }

  @AfterEach
  void tearDown() {
    if (manager != null) manager.close();
  }

  @Test
  void refreshesFiveMinutesBeforeExpiryKeepingTheClient() {
    manager(fetcher()).start();
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.READY), statuses);
    FakeChatClient client = clients.get(0);
    assertEquals("http://127.0.0.1:1/v1", client.options.apiUrl());
    assertEquals(55 * MINUTE, time.pendingDelay());

    time.advance(55 * MINUTE - 1);
    assertEquals(1, fetches.get());
    time.advance(1);
    assertEquals(2, fetches.get());
    assertEquals(List.of("jwt-1", "jwt-2"), client.tokens);
    assertEquals(List.of("connect", "update"), client.calls, "a refresh hands the token over, never connects");
    assertEquals(1, clients.size(), "the same client object across refreshes");
    assertSame(client, manager.state().client());
    assertEquals(SessionStatus.READY, manager.state().status());
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.READY), statuses, "a refresh changes no status");
    assertEquals(55 * MINUTE, time.pendingDelay());
  }

  @Test
  void refreshesRightAfterConnectForATwoMinuteTokenWithoutLooping() {
    lifetime = 2 * MINUTE;
    manager(fetcher()).start();
    time.advance(0);
    assertEquals(2, fetches.get(), "refreshed immediately after connect");
    // the new token is short too: the next refresh waits half its lifetime instead of looping
    assertEquals(MINUTE, time.pendingDelay());
    time.advance(MINUTE - 1);
    assertEquals(2, fetches.get());
    time.advance(1);
    assertEquals(3, fetches.get());
    assertEquals(List.of("jwt-1", "jwt-2", "jwt-3"), clients.get(0).tokens);
  }

  @Test
  void aRestCallAndAReconnectHittingExpiryTogetherCauseOneFetch() throws Exception {
    manager(fetcher()).start();
    CompletableFuture<Session> pending = new CompletableFuture<>();
    answers.add(pending);
    FakeChatClient client = clients.get(0);
    // the client's REST path and its socket path both ask the refresher, as a real client does
    CompletableFuture<String> fromRest = client.options.tokenRefresher().refreshToken();
    CompletableFuture<String> fromSocket = client.options.tokenRefresher().refreshToken();
    time.advance(55 * MINUTE); // the scheduled refresh falls due too
    assertEquals(2, fetches.get(), "one fetch for the three triggers");
    pending.complete(session(2));
    assertEquals("jwt-2", fromRest.get(30, TimeUnit.SECONDS));
    assertEquals("jwt-2", fromSocket.get(30, TimeUnit.SECONDS));
    assertEquals(List.of("jwt-1", "jwt-2"), client.tokens);
    assertEquals(2, fetches.get());
  }

  @Test
  void anInvalidTokenLeadsToErrorAfterOneAttempt() {
    manager = manager(fetcher());
    answers.add(CompletableFuture.completedFuture(session(1)));
    manager.start();
    FakeChatClient client = clients.get(0);
    client.connectFailure = new ApiException(401, "unauthorized", "invalid token");
    manager.stop();
    statuses.clear();
    time.advance(56 * MINUTE); // the held token is no longer good for long: start() fetches
    manager.start();
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.ERROR), statuses);
    ApiException error = (ApiException) manager.state().error();
    assertNotNull(error);
    assertEquals("unauthorized", error.code());
    int fetched = fetches.get();
    int connects = client.tokens.size();
    time.advance(24 * 60 * MINUTE);
    assertEquals(fetched, fetches.get(), "no retry loop");
    assertEquals(connects, client.tokens.size());
  }

  @Test
  void aTenantRouteAnswering401LeadsToError() throws Exception {
    try (MockWebServer route = new MockWebServer()) {
      route.enqueue(new MockResponse().setResponseCode(401).setBody("{\"error\":{\"code\":\"unauthorized\"}}"));
      route.start();
      OkHttpClient http = new OkHttpClient();
      try {
        manager(SessionFetcher.http(route.url("/api/chat/session").toString(), http)).start();
        Await.until("the route's answer", () -> manager.state().status() != SessionStatus.LOADING);
        assertEquals(SessionStatus.ERROR, manager.state().status());
        assertEquals(401, ((ApiException) manager.state().error()).status());
        time.advance(60 * MINUTE);
        assertEquals(1, route.getRequestCount(), "no retry");
        assertTrue(clients.isEmpty(), "no client without a session");
      } finally {
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
      }
    }
  }

  @Test
  void aTenantRouteAnswering503IsRetried() throws Exception {
    try (MockWebServer route = new MockWebServer()) {
      route.enqueue(new MockResponse().setResponseCode(503).setBody("upstream unavailable"));
      route.enqueue(new MockResponse().setHeader("Content-Type", "application/json").setBody("{\"token\":\"jwt-9\","
          + "\"apiUrl\":\"http://127.0.0.1:1/v1\",\"chatUserId\":\"alice\",\"expiresAt\":"
          + (time.nowMillis() + 60 * MINUTE) + "}"));
      route.start();
      OkHttpClient http = new OkHttpClient();
      try {
        manager(SessionFetcher.http(route.url("/api/chat/session").toString(), http)).start();
        Await.until("the route's answer", () -> manager.state().status() != SessionStatus.LOADING);
        assertEquals(SessionStatus.OFFLINE, manager.state().status());
        ApiException error = (ApiException) manager.state().error();
        assertEquals(503, error.status());
        assertEquals("http_503", error.code());
        time.advance(1_000);
        Await.until("the retry's answer", () -> manager.state().status() == SessionStatus.READY);
        assertEquals(2, route.getRequestCount());
        assertEquals(List.of("jwt-9"), clients.get(0).tokens);
      } finally {
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
      }
    }
  }

  @Test
  void theDefaultFetcherReadsTheSessionWithTheAppsCookies() throws Exception {
    try (MockWebServer route = new MockWebServer()) {
      route.enqueue(new MockResponse().setBody("{\"token\":\"jwt-x\",\"apiUrl\":\"http://127.0.0.1:9/v1\","
          + "\"chatUserId\":\"alice\",\"expiresAt\":\"2027-01-15T08:00:00.000Z\",\"displayName\":\"Alice\"}"));
      route.start();
      okhttp3.CookieJar jar = new okhttp3.CookieJar() {
        @Override
        public void saveFromResponse(okhttp3.HttpUrl url, List<okhttp3.Cookie> cookies) {}

        @Override
        public List<okhttp3.Cookie> loadForRequest(okhttp3.HttpUrl url) {
          return List.of(new okhttp3.Cookie.Builder().name("sid").value("s3cret").hostOnlyDomain(url.host()).build());
        }
      };
      OkHttpClient http = new OkHttpClient.Builder().cookieJar(jar).build();
      try {
        Session s = SessionFetcher.http(route.url("/api/chat/session").toString(), http).fetch().get(30, TimeUnit.SECONDS);
        assertEquals("jwt-x", s.token());
        assertEquals("http://127.0.0.1:9/v1", s.apiUrl());
        assertEquals("alice", s.chatUserId());
        assertEquals("Alice", s.displayName());
        assertEquals(1800000000000L, s.expiresAtMillis());
        assertEquals("sid=s3cret", route.takeRequest().getHeader("Cookie"));
      } finally {
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
      }
    }
  }

  @Test
  void noNetworkIsOfflineAndBackToReadyByItself() {
    answers.add(new TransportException("no route to host"));
    answers.add(new TransportException("no route to host"));
    manager(fetcher()).start();
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.OFFLINE), statuses);
    time.advance(999);
    assertEquals(1, fetches.get());
    time.advance(1); // 1 s, then 2 s
    assertEquals(2, fetches.get());
    assertEquals(SessionStatus.OFFLINE, manager.state().status());
    time.advance(2_000);
    assertEquals(3, fetches.get());
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.OFFLINE, SessionStatus.READY), statuses);

    // a lost connection is OFFLINE, and CONNECTED again is READY
    FakeChatClient client = clients.get(0);
    client.setState(ConnectionState.RECONNECTING, "transport_error");
    assertEquals(SessionStatus.OFFLINE, manager.state().status());
    client.setState(ConnectionState.CONNECTED, "connected");
    assertEquals(SessionStatus.READY, manager.state().status());
  }

  @Test
  void aLostNetworkIsOfflineAtOnceAndReadyAgainWhenTheConnectionSurvived() {
    manager(fetcher()).start();
    manager.networkLost();
    assertEquals(SessionStatus.OFFLINE, manager.state().status());
    assertTrue(manager.state().error() instanceof TransportException, String.valueOf(manager.state().error()));
    manager.networkLost(); // reported once
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.READY, SessionStatus.OFFLINE), statuses);

    manager.networkAvailable(); // the client never noticed: still connected
    assertEquals(SessionStatus.READY, manager.state().status());
    assertEquals(0, clients.get(0).reconnectNows);
  }

  @Test
  void aReturningNetworkRetriesAWaitingFetchAndReconnectsAtOnce() {
    answers.add(new TransportException("no route to host"));
    manager(fetcher()).start();
    assertEquals(1, fetches.get());
    assertEquals(1_000, time.pendingDelay()); // the fetch retry's backoff
    manager.networkAvailable();
    assertEquals(2, fetches.get()); // now, not in a second
    assertEquals(SessionStatus.READY, manager.state().status());

    FakeChatClient client = clients.get(0);
    client.setState(ConnectionState.RECONNECTING, "transport_error");
    manager.networkLost();
    manager.networkAvailable();
    assertEquals(1, client.reconnectNows);
    assertEquals(2, fetches.get()); // the session is still good: no fetch
    assertEquals(SessionStatus.OFFLINE, manager.state().status()); // until the client is connected again
    client.setState(ConnectionState.CONNECTED, "connected");
    assertEquals(SessionStatus.READY, manager.state().status());
  }

  @Test
  void networkSignalsDoNothingWhileStopped() {
    manager(fetcher()).start();
    manager.stop();
    manager.networkLost();
    manager.networkAvailable();
    assertEquals(SessionStatus.IDLE, manager.state().status());
    assertEquals(0, clients.get(0).reconnectNows);
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.READY, SessionStatus.IDLE), statuses);
  }

  @Test
  void stopDisconnectsAndStartResumesWithTheHeldToken() {
    manager(fetcher()).start();
    FakeChatClient client = clients.get(0);
    manager.stop();
    assertEquals(SessionStatus.IDLE, manager.state().status());
    assertEquals(1, client.disconnects);
    time.advance(60 * MINUTE); // no refresh while stopped
    assertEquals(1, fetches.get());
    manager.start(); // the token held is expired by now: a fetch
    assertEquals(2, fetches.get());
    assertEquals(SessionStatus.READY, manager.state().status());
    manager.stop();
    time.advance(MINUTE);
    manager.start(); // the token is good for 59 more minutes: no fetch
    assertEquals(2, fetches.get());
    assertEquals(List.of("jwt-1", "jwt-2", "jwt-2"), client.tokens);
  }

  @Test
  void aChangedUserIsAnError() {
    manager(() -> {
      int n = fetches.incrementAndGet();
      return CompletableFuture.completedFuture(Session.builder("jwt-" + n, "http://127.0.0.1:1/v1",
          n == 1 ? "alice" : "mallory", time.nowMillis() + lifetime).build());
    }).start();
    time.advance(55 * MINUTE);
    assertEquals(SessionStatus.ERROR, manager.state().status());
    assertEquals(List.of("jwt-1"), clients.get(0).tokens);
  }

  @Test
  void aRefreshTheRouteRefusesIsAnErrorAndDisconnects() {
    manager(fetcher()).start();
    answers.add(new ApiException(401, "unauthorized", "not signed in"));
    time.advance(55 * MINUTE);
    assertEquals(SessionStatus.ERROR, manager.state().status());
    assertEquals(1, clients.get(0).disconnects);
    time.advance(24 * 60 * MINUTE);
    assertEquals(2, fetches.get(), "no retry");
    manager.start(); // one new attempt
    assertEquals(3, fetches.get());
    assertEquals(SessionStatus.READY, manager.state().status());
  }

  @Test
  void aRefreshThatFailsOnTheNetworkStaysReadyWhileConnectedAndRetries() {
    manager(fetcher()).start();
    answers.add(new TransportException("timeout"));
    time.advance(55 * MINUTE);
    assertEquals(SessionStatus.READY, manager.state().status(), "the connection still works");
    time.advance(1_000);
    assertEquals(3, fetches.get());
    assertEquals(List.of("jwt-1", "jwt-3"), clients.get(0).tokens);
  }

  @Test
  void aSessionRouteFailingWith5xxIsRetriedWithBackoffNotAnError() {
    // the tenant's backend is down for a moment (502, 503, 504; 408 and 429 too): the user is still signed in
    answers.add(new ApiException(503, "http_503", "the session route answered 503"));
    answers.add(new ApiException(429, "http_429", "the session route answered 429"));
    manager(fetcher()).start();
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.OFFLINE), statuses);
    assertEquals(503, ((ApiException) manager.state().error()).status());
    time.advance(1_000); // 1 s, then 2 s
    assertEquals(2, fetches.get());
    assertEquals(SessionStatus.OFFLINE, manager.state().status());
    time.advance(2_000);
    assertEquals(3, fetches.get());
    assertEquals(List.of(SessionStatus.LOADING, SessionStatus.OFFLINE, SessionStatus.READY), statuses);

    // a refresh the backend fails while connected: still READY, retried, never ERROR
    answers.add(new ApiException(500, "http_500", "the session route answered 500"));
    time.advance(55 * MINUTE);
    assertEquals(4, fetches.get());
    assertEquals(SessionStatus.READY, manager.state().status(), "the connection still works");
    time.advance(1_000);
    assertEquals(5, fetches.get());
    assertEquals(List.of("jwt-3", "jwt-5"), clients.get(0).tokens);
    assertEquals(0, clients.get(0).disconnects);
  }

  @Test
  void theClientsRefreshFailingOnTheNetworkIsOfflineNotAnError() throws Exception {
    manager(fetcher()).start();
    FakeChatClient client = clients.get(0);
    // the gateway said the token expired; the client asks the manager, whose fetch fails on the network
    client.setState(ConnectionState.RECONNECTING, "token_expired");
    answers.add(new TransportException("no route to host"));
    CompletableFuture<String> refresh = client.options.tokenRefresher().refreshToken();
    assertTrue(refresh.isCompletedExceptionally());
    // the client reports the failed refresh and asks again after its backoff, RECONNECTING
    client.setState(ConnectionState.RECONNECTING, "token_refresh_failed");
    assertEquals(SessionStatus.OFFLINE, manager.state().status());
    time.advance(1_000); // the manager's own retry
    assertEquals(3, fetches.get());
    assertEquals(List.of("jwt-1", "jwt-3"), client.tokens);
    client.setState(ConnectionState.CONNECTED, "connected");
    assertEquals(SessionStatus.READY, manager.state().status());
    assertEquals(0, client.disconnects);
  }

  @Test
  void aSessionRouteAnswering403IsAnError() {
    manager(fetcher()).start();
    answers.add(new ApiException(403, "unauthorized", "the session route answered 403"));
    time.advance(55 * MINUTE);
    assertEquals(SessionStatus.ERROR, manager.state().status());
    assertEquals(1, clients.get(0).disconnects);
    time.advance(24 * 60 * MINUTE);
    assertEquals(2, fetches.get(), "no retry");
  }

  @Test
  void theGatewayRefusingAFreshTokenAsExpiredIsAnErrorNotALoop() {
    manager(fetcher()).start();
    FakeChatClient client = clients.get(0);
    client.setState(ConnectionState.RECONNECTING, "token_expired");
    assertEquals(SessionStatus.READY, manager.state().status(), "the first expiry is the client's to refresh");
    client.setState(ConnectionState.DISCONNECTED, "token_expired"); // the refreshed token was refused too
    assertEquals(SessionStatus.ERROR, manager.state().status());
  }

  @Test
  void theOutboxDirectoryReachesTheClientsOptions() {
    java.io.File dir = new java.io.File("build-outbox-dir");
    SessionManager m = SessionManager.builder(fetcher(), s -> { }).scheduler(time).callbackExecutor(Runnable::run)
        .outboxDirectory(dir).clientFactory(options -> {
          FakeChatClient c = new FakeChatClient(options);
          clients.add(c);
          return c;
        }).build();
    m.start();
    assertEquals(dir, clients.get(0).options.outboxDirectory());
    m.close();
  }

  @Test
  void theClientOptionsGivenReachTheClientAfterTheManagersOwn() {
    dev.svc.chat.store.ChatStoreProvider store = new dev.svc.chat.store.ChatStoreProvider() {
      @Override
      public dev.svc.chat.store.ChatStore open(String userId) {
        throw new UnsupportedOperationException();
      }

      @Override
      public void delete(String userId) {
      }
    };
    SessionManager m = SessionManager.builder(fetcher(), s -> { }).scheduler(time).callbackExecutor(Runnable::run)
        .clientOptions(b -> b.store(store).unreadCap(50)).clientFactory(options -> {
          FakeChatClient c = new FakeChatClient(options);
          clients.add(c);
          return c;
        }).build();
    m.start();
    assertSame(store, clients.get(0).options.store());
    assertEquals(50, clients.get(0).options.unreadCap());
    assertTrue(clients.get(0).options.tokenRefresher() != null, "the manager's own options stay");
    m.close();
  }

  @Test
  void closeClosesTheClient() {
    manager(fetcher()).start();
    manager.close();
    assertTrue(clients.get(0).closed);
    assertEquals(SessionStatus.IDLE, manager.state().status());
  }
}
