package dev.svc.chat;

/**
 * Why the connection state changed: the typed reason of a {@link ConnectionStateChange}. {@link #code()} is a
 * short stable string for logs and metrics.
 */
public enum ConnectionReason {
  /** The app called {@link ChatClient#connect(String, String)}. */
  CONNECT("connect"),
  /** The gateway accepted the handshake. */
  CONNECTED("connected"),
  /** The gateway or the network closed the socket. */
  TRANSPORT_CLOSED("transport_closed"),
  /** The socket failed (connection refused or reset, DNS, TLS). */
  TRANSPORT_ERROR("transport_error"),
  /** Nothing arrived from the gateway within {@code pingInterval + pingTimeout}: a stalled connection. */
  PING_TIMEOUT("ping_timeout"),
  /**
   * The handshake did not complete: no or a wrong first packet, no answer in time, absurd values, or a
   * CONNECT_ERROR that says the gateway failed rather than refused (a 5xx-class code such as {@code internal},
   * or {@code rate_limited}; the cause is its {@link ApiException}). The client retries with backoff.
   */
  HANDSHAKE_FAILED("handshake_failed"),
  /** The gateway sent what the client could not read or trust; the connection was replaced. */
  PROTOCOL_ERROR("protocol_error"),
  /** The gateway sent a frame larger than its own {@code maxPayload}; the connection was replaced. */
  FRAME_TOO_LARGE("frame_too_large"),
  /** The gateway refused the token as invalid ({@code unauthorized}); there is no automatic reconnect. */
  UNAUTHORIZED("unauthorized"),
  /**
   * The session token expired. With a {@link TokenRefresher} the client refreshes it and reconnects (state
   * {@link ConnectionState#RECONNECTING}); without one it stays {@link ConnectionState#DISCONNECTED}.
   */
  TOKEN_EXPIRED("token_expired"),
  /**
   * The {@link TokenRefresher} failed to refresh an expired token without refusing it (a network error, or the
   * tenant's backend answering 5xx, 408 or 429; the cause is its error): the client stays
   * {@link ConnectionState#RECONNECTING} and asks the refresher again after the change's
   * {@linkplain ConnectionStateChange#retryDelayMillis() retry delay}, the reconnect backoff.
   */
  TOKEN_REFRESH_FAILED("token_refresh_failed"),
  /**
   * The gateway refused the handshake with another 4xx-class service error (see the cause's code); there is no
   * automatic reconnect.
   */
  REFUSED("refused"),
  /** The gateway disconnected the client on purpose; there is no automatic reconnect. */
  SERVER_DISCONNECT("server_disconnect"),
  /** The app called {@link ChatClient#disconnect()}. */
  CLIENT_DISCONNECT("client_disconnect"),
  /** The app called {@link ChatClient#close()}. */
  CLOSED("closed");

  private final String code;

  ConnectionReason(String code) {
    this.code = code;
  }

  /**
   * Returns the short stable code of this reason, such as {@code ping_timeout}.
   *
   * @return the code
   */
  public String code() {
    return code;
  }
}
