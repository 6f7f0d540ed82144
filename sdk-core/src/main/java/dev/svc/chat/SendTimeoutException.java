package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a send did not succeed within the deadline set with
 * {@link SvcOptions.Builder#sendTimeoutMillis(long)}: the outbox gave up on it and will not try again. The
 * deadline counts from the call to {@link ChatClient#sendMessage(String, java.util.List, String)}, through
 * retries and waits for the connection. If an attempt was still under way at the deadline, the service may
 * yet store the message: sending again with the same {@link #clientMessageId()} is safe, and answers the
 * stored message if there is one.
 */
public final class SendTimeoutException extends ChatException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /** The client message id of the send that timed out. */
  private final String clientMessageId;
  /** The send timeout that passed. */
  private final long timeoutMillis;

  /**
   * Creates a send timeout.
   *
   * @param clientMessageId the id of the send that timed out
   * @param timeoutMillis the deadline that passed, in milliseconds
   * @param lastError the failure of the last attempt, if there was one
   */
  public SendTimeoutException(String clientMessageId, long timeoutMillis, @Nullable Throwable lastError) {
    super("the send " + clientMessageId + " did not succeed within " + timeoutMillis + " ms"
        + (lastError == null ? "" : " (last error: " + lastError.getMessage() + ")"), lastError);
    if (clientMessageId == null) throw new NullPointerException("clientMessageId == null");
    this.clientMessageId = clientMessageId;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Returns the {@code clientMessageId} of the send that timed out.
   *
   * @return the client message id
   */
  public String clientMessageId() {
    return clientMessageId;
  }

  /**
   * Returns the deadline that passed.
   *
   * @return milliseconds
   */
  public long timeoutMillis() {
    return timeoutMillis;
  }
}
