package dev.svc.chat.internal.rest;

import java.util.Date;

import okhttp3.Response;

/**
 * Reads the {@code Retry-After} header of an answer (RFC 9110 section 10.2.3): delta-seconds, or an HTTP date.
 */
public final class RetryAfter {
  /** Delays are capped here (about 292 million years) so that seconds never overflow as milliseconds. */
  private static final long MAX_SECONDS = Long.MAX_VALUE / 1000;

  private RetryAfter() {
  }

  /**
   * Returns the delay the answer asked for in milliseconds, or -1 when it has no valid {@code Retry-After}.
   * A date is measured from the answer's {@code Date} header, else from when the answer arrived; a date in the
   * past is 0.
   */
  public static long millis(Response response) {
    String value = response.header("Retry-After");
    if (value == null) return -1;
    long seconds = deltaSeconds(value.trim());
    if (seconds >= 0) return seconds * 1000;
    Date at = response.headers().getDate("Retry-After");
    if (at == null) return -1;
    Date served = response.headers().getDate("Date");
    long now = served != null ? served.getTime() : response.receivedResponseAtMillis();
    return Math.max(0, at.getTime() - now);
  }

  /** Returns the value as whole seconds (capped), or -1 if it is not 1*DIGIT. */
  static long deltaSeconds(String value) {
    if (value.isEmpty()) return -1;
    long seconds = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') return -1;
      seconds = seconds >= MAX_SECONDS / 10 ? MAX_SECONDS : Math.min(MAX_SECONDS, seconds * 10 + (c - '0'));
    }
    return seconds;
  }
}
