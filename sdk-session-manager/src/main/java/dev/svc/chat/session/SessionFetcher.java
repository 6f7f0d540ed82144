package dev.svc.chat.session;

import java.util.concurrent.CompletableFuture;

import okhttp3.OkHttpClient;

/**
 * Fetches the current session: the JS SDK's {@code fetchSession}. Implementations fail the future with an
 * {@link dev.svc.chat.ApiException} of the route's status when the tenant route answered non-2xx: a 4xx other
 * than 408 and 429 means not signed in (the manager goes to {@link SessionStatus#ERROR} without retrying), a
 * 5xx, 408 or 429 that the tenant's backend failed for now (retried). On network failures they fail it with a
 * {@link dev.svc.chat.TransportException} (or an {@link java.io.IOException}): the manager goes
 * {@link SessionStatus#OFFLINE} (unless the client is still connected) and retries with backoff.
 */
public interface SessionFetcher {
  /**
   * Returns a future of the current session. Called at most once at a time by a manager.
   *
   * @return the session
   */
  CompletableFuture<Session> fetch();

  /**
   * Returns the default fetcher: {@code GET url} with the cookies of {@code http}'s {@link okhttp3.CookieJar}
   * (the JS SDK's {@code credentials: include}), reading {@code token}, {@code apiUrl}, {@code chatUserId},
   * {@code expiresAt} and {@code displayName}.
   *
   * @param url the tenant's session route, such as {@code https://app.example.com/api/chat/session}
   * @param http the app's OkHttp client, whose cookie jar holds the app's login; never shut down
   * @return the fetcher
   */
  static SessionFetcher http(String url, OkHttpClient http) {
    return new HttpSessionFetcher(url, "GET", http);
  }

  /**
   * Returns the default fetcher with the given method ({@code GET} or {@code POST}, an empty JSON body).
   *
   * @param url the tenant's session route
   * @param method {@code GET} or {@code POST}
   * @param http the app's OkHttp client with its cookie jar
   * @return the fetcher
   */
  static SessionFetcher http(String url, String method, OkHttpClient http) {
    return new HttpSessionFetcher(url, method, http);
  }

  /**
   * Returns a fetcher that asks {@code supplier} for a typed session, for bots and tests that mint their own.
   *
   * @param supplier gives each new session
   * @return the fetcher
   */
  static SessionFetcher of(final Supplier supplier) {
    return new SessionFetcher() {
      @Override
      public CompletableFuture<Session> fetch() {
        CompletableFuture<Session> f = new CompletableFuture<>();
        try {
          f.complete(supplier.get());
        } catch (Exception e) {
          f.completeExceptionally(e);
        }
        return f;
      }
    };
  }

  /** Supplies a session synchronously; may throw. */
  interface Supplier {
    /**
     * Returns a new session.
     *
     * @return the session
     * @throws Exception when it cannot
     */
    Session get() throws Exception;
  }
}
