package dev.svc.chat;

/**
 * The state of a client's realtime connection. Changes are reported as {@link ConnectionStateChange}
 * events of type {@link EventType#CONNECTION_STATE}.
 *
 * <p>Transitions:
 * <ul>
 *   <li>{@link #DISCONNECTED} to {@link #CONNECTING}: {@link ChatClient#connect(String, String)}.
 *   <li>{@link #CONNECTING} or {@link #RECONNECTING} to {@link #CONNECTED}: the gateway accepted the
 *       handshake; the joined room, if any, is joined again.
 *   <li>{@link #CONNECTING} or {@link #CONNECTED} to {@link #RECONNECTING}: the transport was lost (socket
 *       failure or close, no heartbeat within {@code pingInterval + pingTimeout}, a failed handshake, a
 *       CONNECT_ERROR with a 5xx-class code or {@code rate_limited}); the client retries with exponential
 *       backoff and full jitter.
 *   <li>{@link #CONNECTED} or {@link #RECONNECTING} to {@link #CONNECTING}: {@code connect} was called
 *       again, typically with a refreshed token.
 *   <li>{@link #CONNECTING}, {@link #CONNECTED} or {@link #RECONNECTING} to {@link #DISCONNECTED}: the
 *       gateway refused the handshake (reason: its error code, such as {@code unauthorized} or
 *       {@code token_expired}), the server disconnected the client (reason {@code server_disconnect}, or
 *       {@code token_expired} after a {@code session-expired} event), or
 *       {@link ChatClient#disconnect()} (reason {@code client_disconnect}). There is no automatic
 *       reconnect from here.
 *   <li>any state to {@link #CLOSED}: {@link ChatClient#close()}. It is final.
 * </ul>
 */
public enum ConnectionState {
  /** Not connected and not trying to: the initial state, and the state after a refusal or a disconnect. */
  DISCONNECTED,
  /** Opening the WebSocket and performing the handshake after {@code connect}. */
  CONNECTING,
  /** The gateway accepted the handshake; realtime events flow. */
  CONNECTED,
  /** The transport was lost; the client is waiting out a backoff delay or performing a new handshake. */
  RECONNECTING,
  /** The client was closed; it can no longer be used. */
  CLOSED
}
