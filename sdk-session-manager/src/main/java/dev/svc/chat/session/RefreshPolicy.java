package dev.svc.chat.session;

/**
 * When to refresh a session's token, and how long to wait before retrying after a network failure.
 *
 * <p>The rule: a token with more than the lead time left is refreshed at {@code expiresAt - lead}. A token
 * with less left (its lifetime is under the lead time) is refreshed right after connect, as the JS SDK
 * does, but only once in a row: if the token that refresh brought is short as well, the next refresh waits
 * half of its remaining lifetime (at least one second), so a service that only issues short tokens causes
 * a refresh every half lifetime, never a loop.
 */
final class RefreshPolicy {
  static final long MIN_SHORT_DELAY_MILLIS = 1_000;
  static final long RETRY_BASE_MILLIS = 1_000;
  static final long RETRY_MAX_MILLIS = 60_000;

  private final long leadMillis;

  long leadMillis() {
    return leadMillis;
  }
  private boolean shortStreak;

  RefreshPolicy(long leadMillis) {
    this.leadMillis = leadMillis;
  }

  /** Returns the delay until the refresh of a token expiring at {@code expiresAt}, seen at {@code now}. */
  long delayMillis(long expiresAt, long now) {
    long remaining = expiresAt - now;
    if (remaining > leadMillis) {
      shortStreak = false;
      return remaining - leadMillis;
    }
    if (!shortStreak) {
      shortStreak = true;
      return 0;
    }
    return Math.max(remaining / 2, MIN_SHORT_DELAY_MILLIS);
  }

  /** Returns the delay before retry {@code attempt} (from 0): 1 s doubling up to 60 s. */
  static long retryDelayMillis(int attempt) {
    long delay = RETRY_BASE_MILLIS << Math.min(attempt, 16);
    return Math.min(delay, RETRY_MAX_MILLIS);
  }
}
