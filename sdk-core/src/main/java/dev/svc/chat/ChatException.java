package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * The base of every exception this SDK throws or fails a future with. It is unchecked; the subclasses say
 * what went wrong: {@link ApiException} (the service refused), {@link TransportException} (the network or
 * the connection failed) and {@link ChatStateException} (the client was not in a state to do it).
 */
public class ChatException extends RuntimeException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message and an optional cause.
   *
   * @param message what went wrong
   * @param cause the underlying failure, if any
   */
  public ChatException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  /**
   * Creates an exception with a message.
   *
   * @param message what went wrong
   */
  public ChatException(String message) {
    super(message);
  }
}
