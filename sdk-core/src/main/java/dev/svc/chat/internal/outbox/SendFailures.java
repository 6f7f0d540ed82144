package dev.svc.chat.internal.outbox;

import java.io.IOException;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatException;
import dev.svc.chat.TransportException;

/** How the outbox reads the failure of an attempt: retried, or the end of the send. */
final class SendFailures {
  private SendFailures() {
  }

  /**
   * Returns whether a send that failed with {@code error} is tried again with the same id: a network error,
   * a 5xx answer, or {@code 429}. Any other refusal is final (a {@code 401 token_expired} was already
   * refreshed and retried once by the REST layer, so a 401 here is final too).
   */
  static boolean isRetryable(Throwable error) {
    if (isNetworkFailure(error)) return true;
    if (error instanceof ApiException) {
      int status = ((ApiException) error).status();
      return status >= 500 || status == 429;
    }
    return false;
  }

  /** Returns whether {@code error} is a network failure (rather than an answer of the service). */
  static boolean isNetworkFailure(Throwable error) {
    return error instanceof TransportException || error instanceof IOException;
  }

  /** Returns the wait the service asked for with {@code Retry-After}, in milliseconds, or -1. */
  static long retryAfterMillis(Throwable error) {
    return error instanceof ApiException ? ((ApiException) error).retryAfterMillis() : -1;
  }

  /** Returns {@code error} as the SDK's exception type, for {@link dev.svc.chat.PendingSend#lastError()}. */
  static ChatException asChatException(Throwable error) {
    return error instanceof ChatException ? (ChatException) error
        : new TransportException(String.valueOf(error.getMessage()), error);
  }
}
