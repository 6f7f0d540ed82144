package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the network failed: an I/O error on a REST call, a lost realtime connection, an
 * acknowledgement that did not arrive in time, or an operation cut short because the client was closed
 * or disconnected. Retrying later may succeed.
 *
 * <p>When {@link #outcomeUnknown()} is true, the request may have been carried out: it reached the service, or
 * may have, and its answer was lost. The SDK never sends such a request again by itself unless repeating it is
 * harmless; for a reaction (a toggle) or an edit, read the message before trying again.
 */
public final class TransportException extends ChatException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /** Whether the request may have been carried out, its answer lost. */
  private final boolean outcomeUnknown;

  /**
   * Creates a transport failure with a message and an optional cause.
   *
   * @param message what failed
   * @param cause the underlying I/O error, if any
   */
  public TransportException(String message, @Nullable Throwable cause) {
    this(message, cause, false);
  }

  /**
   * Creates a transport failure that may say the request's outcome is unknown.
   *
   * @param message what failed
   * @param cause the underlying I/O error, if any
   * @param outcomeUnknown whether the request may have been carried out (its answer was lost)
   */
  public TransportException(String message, @Nullable Throwable cause, boolean outcomeUnknown) {
    super(message, cause);
    this.outcomeUnknown = outcomeUnknown;
  }

  /**
   * Creates a transport failure with a message.
   *
   * @param message what failed
   */
  public TransportException(String message) {
    super(message);
    this.outcomeUnknown = false;
  }

  /**
   * Returns whether the request may have been carried out although it failed: it went out (or may have) and no
   * answer was read. A request that is not idempotent (a reaction, an edit) is then not sent again by the SDK.
   *
   * @return true when the outcome is unknown; false when the request is known not to have been carried out, or
   *     the failure is not about one request
   */
  public boolean outcomeUnknown() {
    return outcomeUnknown;
  }
}
