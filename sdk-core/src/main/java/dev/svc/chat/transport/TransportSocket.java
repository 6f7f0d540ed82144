package dev.svc.chat.transport;

import org.jspecify.annotations.Nullable;

/**
 * One WebSocket opened by a {@link Transport}. Its methods may be called from any thread and never block: text
 * is queued and written in the order sent, and a close goes after the text queued before it.
 */
public interface TransportSocket {
  /**
   * Queues a text message. Returns true when it was queued; false when the socket is closing, closed or failed,
   * or when the queue would pass the transport's limit (then the socket is closed as failed, as OkHttp does at
   * 16 MiB), and the message will not be sent.
   *
   * @param text the message
   * @return whether the message was queued
   */
  boolean send(String text);

  /**
   * Returns the size in bytes (UTF-8) of the messages queued and not yet written to the network. The engine keeps
   * that far below any transport's limit itself (its sends in flight have a budget of bytes per connection), so
   * this is for diagnostics and tests.
   *
   * @return the queued bytes
   */
  long queueSize();

  /**
   * Starts a normal close: the Close frame goes after the messages queued so far, and the socket ends when the
   * peer answers (or when {@link #cancel} is called). Returns false when a close was started already or the
   * socket has ended.
   *
   * @param code the close status code (1000 for a normal close)
   * @param reason the close reason, or null
   * @return whether this call started the close
   */
  boolean close(int code, @Nullable String reason);

  /**
   * Ends the socket at once, dropping what is queued. The listener hears {@link TransportListener#onFailure}
   * unless the socket had ended already. Calling it again, or after the end, does nothing.
   */
  void cancel();

  /**
   * Asks, from within {@link TransportListener#onText}, that the message being handed over be handed to the
   * listener again after about {@code delayMillis}, with nothing else of this socket handed over meanwhile, so
   * that the listener waits without holding the transport's thread (a transport that shares its threads among
   * many sockets). The transport stops reading the socket meanwhile. Returns false when the transport does not
   * defer (the default): the listener then blocks in onText to wait, which stops this socket's reading only.
   *
   * @param delayMillis how long to wait before the message is handed over again
   * @return whether the message will be handed over again
   */
  default boolean deferText(long delayMillis) {
    return false;
  }
}
