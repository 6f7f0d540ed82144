package dev.svc.chat.server;

import org.jspecify.annotations.Nullable;

/**
 * The base of this package's unchecked exceptions: {@link ServerApiException} when the service refused a
 * request, {@link ServerTransportException} when it could not be reached, {@link WebhookVerificationException}
 * when a webhook must be rejected. A plain {@code ServerException} means the service answered something this
 * client cannot read. Messages never contain the API key, a token or a webhook secret.
 */
public class ServerException extends RuntimeException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong
   */
  public ServerException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong
   * @param cause the underlying failure, or null
   */
  public ServerException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
