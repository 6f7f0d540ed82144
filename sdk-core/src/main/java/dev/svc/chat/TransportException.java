package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the network failed: an I/O error on a REST call, a lost realtime connection, an
 * acknowledgement that did not arrive in time, or an operation cut short because the client was closed
 * or disconnected. Retrying later may succeed.
 */
public final class TransportException extends ChatException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /**
   * Creates a transport failure with a message and an optional cause.
   *
   * @param message what failed
   * @param cause the underlying I/O error, if any
   */
  public TransportException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  /**
   * Creates a transport failure with a message.
   *
   * @param message what failed
   */
  public TransportException(String message) {
    super(message);
  }
}
