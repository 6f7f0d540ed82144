package dev.svc.chat.internal.auth;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatStateException;

/**
 * How the client reads a failed token refresh (the rule of {@link dev.svc.chat.TokenRefresher}'s Javadoc): a
 * refusal ends the session, any other failure is transient and the refresh is asked for again.
 */
public final class RefreshFailures {
  private RefreshFailures() {
  }

  /**
   * Returns whether {@code error} refuses the refresh: an {@link ApiException} of a 4xx status other than 408
   * and 429 (the tenant's route refused the user, say 401 or 403), or a {@link ChatStateException} (the
   * client or the refresher's owner was closed or stopped, or there is no refresher). A network error, a 5xx,
   * 408 or 429, or any other exception is not: the tenant's backend may answer again.
   */
  public static boolean isRefusal(Throwable error) {
    if (error instanceof ChatStateException) return true;
    if (!(error instanceof ApiException)) return false;
    int status = ((ApiException) error).status();
    return status >= 400 && status < 500 && status != 408 && status != 429;
  }
}
