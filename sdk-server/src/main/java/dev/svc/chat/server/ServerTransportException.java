package dev.svc.chat.server;

import java.io.IOException;

/**
 * Thrown when a request did not get an answer: the connection failed, timed out or was cancelled. The
 * request may or may not have reached the service; minting and the other calls of {@link ServerClient} may
 * be repeated.
 */
public final class ServerTransportException extends ServerException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed, such as the request's method and path
   * @param cause the network failure
   */
  public ServerTransportException(String message, IOException cause) {
    super(message, cause);
  }
}
