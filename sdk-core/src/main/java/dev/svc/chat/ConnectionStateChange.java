package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * An immutable report that the connection state changed, delivered to handlers of
 * {@link EventType#CONNECTION_STATE}.
 *
 * <p>The order the app sees: state changes arrive in the order they happened, and promptly, whatever backlog
 * slow handlers hold. A state change may overtake events (messages, changes, receipts, ...) that were queued for
 * the handlers before it: a {@code RECONNECTING} report may come before messages that arrived on the lost
 * connection. It is never overtaken by an event raised after it: everything the new connection and its
 * recovery deliver comes after {@code CONNECTED}. On a callback executor of several threads its handlers may
 * run at the same time as another event's handler; on one thread (Android's main thread) they run next.
 */
public final class ConnectionStateChange {
  private final ConnectionState previous;
  private final ConnectionState current;
  private final ConnectionReason reason;
  private final @Nullable Throwable cause;
  private final int attempt;
  private final long retryDelayMillis;

  /**
   * Creates a state change report that is not about a reconnect attempt.
   *
   * @param previous the state before the change
   * @param current the state after the change
   * @param reason why it changed
   * @param cause the failure that caused the change, if any
   */
  public ConnectionStateChange(ConnectionState previous, ConnectionState current, ConnectionReason reason,
      @Nullable Throwable cause) {
    this(previous, current, reason, cause, 0, -1);
  }

  /**
   * Creates a state change report.
   *
   * @param previous the state before the change
   * @param current the state after the change
   * @param reason why it changed
   * @param cause the failure that caused the change, if any
   * @param attempt the number of the reconnect attempt this change is about, from 1; 0 when none
   * @param retryDelayMillis while waiting to reconnect, the delay before the next attempt; -1 otherwise
   */
  public ConnectionStateChange(ConnectionState previous, ConnectionState current, ConnectionReason reason,
      @Nullable Throwable cause, int attempt, long retryDelayMillis) {
    if (previous == null) throw new NullPointerException("previous == null");
    if (current == null) throw new NullPointerException("current == null");
    if (reason == null) throw new NullPointerException("reason == null");
    this.previous = previous;
    this.current = current;
    this.reason = reason;
    this.cause = cause;
    this.attempt = attempt;
    this.retryDelayMillis = retryDelayMillis;
  }

  /**
   * Returns the state before the change. It equals {@link #current()} for a repeated
   * {@link ConnectionState#RECONNECTING}: every failed attempt is reported.
   *
   * @return the previous state
   */
  public ConnectionState previous() {
    return previous;
  }

  /**
   * Returns the state after the change.
   *
   * @return the current state
   */
  public ConnectionState current() {
    return current;
  }

  /**
   * Returns why the state changed.
   *
   * @return the reason
   */
  public ConnectionReason reason() {
    return reason;
  }

  /**
   * Returns the failure that caused the change, such as the {@link ApiException} of a refused handshake or
   * the I/O error that broke the socket.
   *
   * @return the cause, or null
   */
  public @Nullable Throwable cause() {
    return cause;
  }

  /**
   * Returns the number of the reconnect attempt this change is about: in {@link ConnectionState#RECONNECTING},
   * the attempt that comes next (1 for the first after a loss); in {@link ConnectionState#CONNECTED}, the
   * attempt that succeeded (0 for a first connect).
   *
   * @return the attempt number, or 0
   */
  public int attempt() {
    return attempt;
  }

  /**
   * Returns, while {@link ConnectionState#RECONNECTING}, how long the client waits before its next attempt
   * (for showing "retrying in 5 s"); {@link ChatClient#reconnectNow()} cuts it short.
   *
   * @return the delay in milliseconds, or -1 when no attempt is waiting
   */
  public long retryDelayMillis() {
    return retryDelayMillis;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof ConnectionStateChange)) return false;
    ConnectionStateChange that = (ConnectionStateChange) o;
    return previous == that.previous && current == that.current && reason == that.reason
        && attempt == that.attempt && retryDelayMillis == that.retryDelayMillis
        && (cause == null ? that.cause == null : cause.equals(that.cause));
  }

  @Override
  public int hashCode() {
    int h = previous.hashCode();
    h = 31 * h + current.hashCode();
    h = 31 * h + reason.hashCode();
    h = 31 * h + attempt;
    h = 31 * h + (int) (retryDelayMillis ^ (retryDelayMillis >>> 32));
    return 31 * h + (cause == null ? 0 : cause.hashCode());
  }

  @Override
  public String toString() {
    return "ConnectionStateChange{" + previous + " -> " + current + ", reason=" + reason.code()
        + (attempt == 0 ? "" : ", attempt=" + attempt)
        + (retryDelayMillis < 0 ? "" : ", retryIn=" + retryDelayMillis + "ms")
        + (cause == null ? "" : ", cause=" + cause) + "}";
  }
}
