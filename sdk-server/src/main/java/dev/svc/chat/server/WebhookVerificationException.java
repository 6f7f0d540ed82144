package dev.svc.chat.server;

/**
 * Thrown by {@link WebhookVerifier} when a webhook must be rejected. A receiver answers such a request with
 * a 4xx status (400 or 401) and does not act on it; {@link #reason()} says which check failed.
 */
public final class WebhookVerificationException extends ServerException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /** Which check failed. */
  public enum Reason {
    /** A {@code webhook-id}, {@code webhook-timestamp} or {@code webhook-signature} header is missing. */
    MISSING_HEADER,
    /** {@code webhook-timestamp} is not a whole number of seconds. */
    INVALID_TIMESTAMP,
    /** {@code webhook-timestamp} is older than the tolerance allows (a replay, or a very late retry). */
    TIMESTAMP_TOO_OLD,
    /** {@code webhook-timestamp} is further in the future than the tolerance allows. */
    TIMESTAMP_TOO_NEW,
    /** No {@code v1} signature in the header matches the payload: tampered, or signed with another secret. */
    NO_MATCHING_SIGNATURE,
    /** The signature is valid but the payload is not a webhook event {@code {type, timestamp, data}}. */
    MALFORMED_PAYLOAD
  }

  /** Why the webhook was refused. */
  private final Reason reason;

  /**
   * Creates the exception.
   *
   * @param reason which check failed
   * @param message a human explanation, never containing the secret
   */
  public WebhookVerificationException(Reason reason, String message) {
    super(message);
    if (reason == null) throw new NullPointerException("reason == null");
    this.reason = reason;
  }

  /**
   * Returns which check failed.
   *
   * @return the reason
   */
  public Reason reason() {
    return reason;
  }
}
