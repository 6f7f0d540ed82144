package dev.svc.chat;

/**
 * Thrown when the service refused a request: a REST call answered with a non-2xx status, a refused realtime
 * handshake (CONNECT_ERROR), or an acknowledgement with {@code ok: false}. It carries the HTTP status,
 * the machine-readable error code and the human message of the service's error body
 * {@code {"error": {"code", "message"}}}. Realtime refusals carry the status the REST API uses for the same
 * code (for example 401 for {@code unauthorized} and {@code token_expired}).
 */
public final class ApiException extends ChatException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /** The HTTP status of the answer. */
  private final int status;
  /** The contract's error code. */
  private final String code;
  /** The wait the answer asked for, or -1. */
  private final long retryAfterMillis;

  /**
   * Creates an API error.
   *
   * @param status the HTTP status (or the status the REST API uses for {@code code})
   * @param code the machine-readable error code, such as {@code not_found}
   * @param message the human-readable message from the service
   */
  public ApiException(int status, String code, String message) {
    this(status, code, message, -1);
  }

  /**
   * Creates an API error whose answer asked the client to wait before trying again.
   *
   * @param status the HTTP status (or the status the REST API uses for {@code code})
   * @param code the machine-readable error code, such as {@code rate_limited}
   * @param message the human-readable message from the service
   * @param retryAfterMillis the delay the answer's {@code Retry-After} header asked for, in milliseconds, or
   *     -1 when it had none
   * @throws IllegalArgumentException if {@code retryAfterMillis} is below -1
   */
  public ApiException(int status, String code, String message, long retryAfterMillis) {
    super(message);
    if (code == null) throw new NullPointerException("code == null");
    if (retryAfterMillis < -1) throw new IllegalArgumentException("retryAfterMillis < -1: " + retryAfterMillis);
    this.status = status;
    this.code = code;
    this.retryAfterMillis = retryAfterMillis;
  }

  /**
   * Returns the HTTP status of the refusal, such as 401, 403 or 404.
   *
   * @return the status
   */
  public int status() {
    return status;
  }

  /**
   * Returns the machine-readable error code, such as {@code unauthorized}, {@code token_expired},
   * {@code forbidden} or {@code not_found}; {@code http_<status>} when the body was not the service's
   * error JSON.
   *
   * @return the code
   */
  public String code() {
    return code;
  }

  /**
   * Returns how long the service asked the client to wait before trying again, from the answer's
   * {@code Retry-After} header: sent with {@code 429 rate_limited} (and by gateways with 503). The header's
   * delay in seconds, or its HTTP date less the time of the answer, is returned in milliseconds (0 for a date
   * already past).
   *
   * @return the delay in milliseconds, or -1 when the answer had no (valid) {@code Retry-After} header, as
   *     for every refusal that did not come from a REST answer
   */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }

  /**
   * Returns whether the refusal was because the session token expired: the app should fetch a new token
   * and call {@link ChatClient#connect(String, String)} again.
   *
   * @return true for the code {@code token_expired}
   */
  public boolean isTokenExpired() {
    return "token_expired".equals(code);
  }

  @Override
  public String toString() {
    return "ApiException{status=" + status + ", code=" + code + ", message=" + getMessage()
        + (retryAfterMillis < 0 ? "" : ", retryAfterMillis=" + retryAfterMillis) + "}";
  }
}
