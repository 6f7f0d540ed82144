package dev.svc.chat;

/**
 * An immutable report that the connection state changed, delivered to handlers of
 * {@link EventType#CONNECTION_STATE}.
 */
public final class ConnectionStateChange {
  private final ConnectionState previous;
  private final ConnectionState current;
  private final @Nullable String reason;
  private final @Nullable Throwable cause;

  /**
   * Creates a state change report.
   *
   * @param previous the state before the change
   * @param current the state after the change
   * @param reason a short machine-readable reason, such as {@code token_expired} or {@code ping_timeout}
   * @param cause the failure that caused the change, if any
   */
  public ConnectionStateChange(ConnectionState previous, ConnectionState current,
      @Nullable String reason, @Nullable Throwable cause) {
    if (previous == null) throw new NullPointerException("previous == null");
    if (current == null) throw new NullPointerException("current == null");
    this.previous = previous;
    this.current = current;
    this.reason = reason;
    this.cause = cause;
  }

  /**
   * Returns the state before the change.
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
   * Returns a short machine-readable reason for the change: {@code connect}, {@code connected},
   * {@code transport_closed}, {@code transport_error}, {@code ping_timeout}, {@code handshake_failed},
   * {@code client_disconnect}, {@code server_disconnect}, {@code closed}, or a service error code such as
   * {@code unauthorized} or {@code token_expired}.
   *
   * @return the reason, or null when none applies
   */
  public @Nullable String reason() {
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

  @Override
  public boolean equals(Object o) {
    if (this == o) return true;
    if (!(o instanceof ConnectionStateChange)) return false;
    ConnectionStateChange that = (ConnectionStateChange) o;
    return previous == that.previous && current == that.current
        && (reason == null ? that.reason == null : reason.equals(that.reason))
        && (cause == null ? that.cause == null : cause.equals(that.cause));
  }

  @Override
  public int hashCode() {
    int h = previous.hashCode();
    h = 31 * h + current.hashCode();
    h = 31 * h + (reason == null ? 0 : reason.hashCode());
    return 31 * h + (cause == null ? 0 : cause.hashCode());
  }

  @Override
  public String toString() {
    return "ConnectionStateChange{" + previous + " -> " + current + ", reason=" + reason
        + (cause == null ? "" : ", cause=" + cause) + "}";
  }
}
