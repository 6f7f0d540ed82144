package dev.svc.chat.server;

/**
 * Thrown when the service refused a request with a non-2xx status. It carries the HTTP status and the
 * machine-readable code and human message of the error body {@code {"error": {"code", "message"}}}
 * (contract section 1): for example 401 {@code unauthorized} for a wrong API key, 404 {@code user_not_found}
 * when minting for an unknown user while the tenant's {@code autoCreateUsers} is off, 429 {@code rate_limited}
 * with {@link #retryAfterMillis()}.
 */
public final class ServerApiException extends ServerException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /** The HTTP status of the answer. */
  private final int status;
  /** The contract's error code. */
  private final String code;
  /** The wait the answer asked for, or -1. */
  private final long retryAfterMillis;

  /**
   * Creates the exception.
   *
   * @param status the HTTP status
   * @param code the machine-readable error code, such as {@code not_found}
   * @param message the human-readable message from the service
   * @param retryAfterMillis the delay the answer's {@code Retry-After} header asked for in milliseconds, or -1
   * @throws IllegalArgumentException if {@code retryAfterMillis} is below -1
   */
  public ServerApiException(int status, String code, String message, long retryAfterMillis) {
    super(message);
    if (code == null) throw new NullPointerException("code == null");
    if (retryAfterMillis < -1) throw new IllegalArgumentException("retryAfterMillis < -1: " + retryAfterMillis);
    this.status = status;
    this.code = code;
    this.retryAfterMillis = retryAfterMillis;
  }

  /**
   * Returns the HTTP status of the refusal, such as 400, 401 or 404.
   *
   * @return the status
   */
  public int status() {
    return status;
  }

  /**
   * Returns the machine-readable error code, such as {@code unauthorized}, {@code bad_request},
   * {@code not_found} or {@code user_not_found}; {@code http_<status>} when the body was not the service's
   * error JSON (a proxy's page, say).
   *
   * @return the code
   */
  public String code() {
    return code;
  }

  /**
   * Returns how long the service asked to wait before trying again, from the answer's {@code Retry-After}
   * header (delay in seconds, or an HTTP date less the answer's time; 0 for a date already past).
   *
   * @return the delay in milliseconds, or -1 when the answer had no valid {@code Retry-After}
   */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }

  @Override
  public String toString() {
    return "ServerApiException{status=" + status + ", code=" + code + ", message=" + getMessage()
        + (retryAfterMillis < 0 ? "" : ", retryAfterMillis=" + retryAfterMillis) + "}";
  }
}
