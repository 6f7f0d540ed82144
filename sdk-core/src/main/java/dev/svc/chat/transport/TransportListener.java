package dev.svc.chat.transport;

/**
 * Receives one socket's events. A transport calls it one event at a time per socket, in the order the events
 * happened, on a thread of its own (never the engine's); a call may block the socket's reading, which is how the
 * engine pushes back on the gateway. After {@link #onClosed} or {@link #onFailure} nothing more is called. Every
 * method does nothing by default.
 */
public abstract class TransportListener {
  /** Creates a listener. */
  protected TransportListener() {
  }

  /**
   * Invoked when the upgrade succeeded and messages can flow.
   *
   * @param socket the socket
   */
  public void onOpen(TransportSocket socket) {
  }

  /**
   * Invoked with a whole text message (the transport assembles a fragmented one). The transport never changes
   * {@code text} afterwards, so the listener may keep it and read it on another thread.
   *
   * @param socket the socket
   * @param text the message
   */
  public void onText(TransportSocket socket, CharSequence text) {
  }

  /**
   * Invoked with a whole binary message; its content is not passed (the gateway's protocol has none the client
   * reads).
   *
   * @param socket the socket
   */
  public void onBinary(TransportSocket socket) {
  }

  /**
   * Invoked when the peer's Close frame arrived: no more messages will come.
   *
   * @param socket the socket
   * @param code the peer's close status code
   * @param reason the peer's close reason (empty when none)
   */
  public void onClosing(TransportSocket socket, int code, String reason) {
  }

  /**
   * Invoked when both sides closed the socket normally; the last call for the socket.
   *
   * @param socket the socket
   * @param code the close status code
   * @param reason the close reason (empty when none)
   */
  public void onClosed(TransportSocket socket, int code, String reason) {
  }

  /**
   * Invoked when the socket could not open or failed (an I/O error, a protocol error, {@link
   * TransportSocket#cancel}); the last call for the socket.
   *
   * @param socket the socket
   * @param error what failed
   * @param httpStatus the HTTP status that answered the upgrade when it was not {@code 101}, else -1
   */
  public void onFailure(TransportSocket socket, Throwable error, int httpStatus) {
  }
}
