package dev.svc.chat.session;

import dev.svc.chat.ApiException;

/**
 * How a {@link SessionManager} reads a failed session fetch: the tenant refused the user (the session ends,
 * {@link SessionStatus#ERROR}), or its backend failed for now (retried with backoff, {@link SessionStatus#OFFLINE}
 * unless the client is still connected). The client reads the manager's failed refresh by the same rule
 * ({@link dev.svc.chat.TokenRefresher#refreshToken()}).
 */
final class FetchFailures {
  private FetchFailures() {
  }

  /**
   * Returns whether {@code e} ends the session: an {@link ApiException} of a 4xx status other than 408 and 429
   * (not signed in), or an answer no retry will fix ({@link IllegalArgumentException} or
   * {@link IllegalStateException}: a malformed session, another user). A network error, a 5xx, 408 or 429 is
   * an outage.
   */
  static boolean endsSession(Throwable e) {
    if (e instanceof ApiException) {
      int status = ((ApiException) e).status();
      return status >= 400 && status < 500 && status != 408 && status != 429;
    }
    return e instanceof IllegalArgumentException || e instanceof IllegalStateException;
  }
}
