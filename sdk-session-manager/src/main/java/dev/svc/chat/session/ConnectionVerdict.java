package dev.svc.chat.session;

import dev.svc.chat.ApiException;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionStateChange;

/** What a change of the client's connection means for a started session's status. */
enum ConnectionVerdict {
  /** Connected: READY, and the refresh timer runs. */
  READY,
  /** The connection was lost and the client reconnects by itself: OFFLINE. */
  OFFLINE,
  /** The token was refused ({@link #failure}): ERROR, no retry. */
  FAILED,
  /** Nothing changes. */
  NONE;

  /** Returns the verdict on {@code change} for a session in {@code status}. */
  static ConnectionVerdict of(ConnectionStateChange change, SessionStatus status) {
    switch (change.current()) {
      case CONNECTED:
        return READY;
      case RECONNECTING:
        // an expired token being refreshed by the client is not "offline": it is invisible to the app; a refresh
        // that failed for now (TOKEN_REFRESH_FAILED: the backend is unreachable) is, and the client asks again
        return change.reason() != ConnectionReason.TOKEN_EXPIRED
            && (status == SessionStatus.READY || status == SessionStatus.LOADING) ? OFFLINE : NONE;
      case DISCONNECTED:
        return change.reason() == ConnectionReason.UNAUTHORIZED || change.reason() == ConnectionReason.TOKEN_EXPIRED
            ? FAILED : NONE;
      default:
        return NONE;
    }
  }

  /** Returns why a {@link #FAILED} change failed the session. */
  static Throwable failure(ConnectionStateChange change) {
    if (change.reason() == ConnectionReason.UNAUTHORIZED) {
      return change.cause() != null ? change.cause()
          : new ApiException(401, "unauthorized", "the session token was refused");
    }
    // the refresh (through the manager) was refused, or the fresh token was refused as expired too (the clocks
    // disagree; retrying would loop); a refresh that failed for now keeps the client RECONNECTING instead
    return new ApiException(401, "token_expired", "the service refused a freshly fetched token as expired");
  }
}
