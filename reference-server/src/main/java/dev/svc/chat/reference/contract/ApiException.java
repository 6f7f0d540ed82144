package dev.svc.chat.reference.contract;

/**
 * A failure the contract names: an HTTP status, a stable code and a human message. REST maps it to the
 * error body {@code {"error":{"code","message"}}}; the gateway maps it to an {@code {ok:false,error}} ack.
 */
public final class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final long retryAfterSeconds;

    private ApiException(int status, String code, String message, long retryAfterSeconds) {
        // No stack trace: these are expected outcomes, and they are never logged as bugs.
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Returns a 400 {@code bad_request} with the given message. */
    public static ApiException badRequest(String message) {
        return new ApiException(400, "bad_request", message, 0);
    }

    /** Returns a 401 {@code unauthorized}. */
    public static ApiException unauthorized() {
        return new ApiException(401, "unauthorized", "Missing or invalid credentials", 0);
    }

    /**
     * Returns a 401 {@code unauthorized} that says which credential the route takes, for a request that
     * brought the other kind: the code stays the contract's, the message tells the developer what to send.
     */
    public static ApiException wrongCredential(boolean routeTakesApiKey) {
        return new ApiException(401, "unauthorized", routeTakesApiKey
                ? "This route takes an API key (x-api-key: sk_...); a session token was given"
                : "This route takes a session token (Authorization: Bearer ...); an API key was given", 0);
    }

    /** Returns a 401 {@code token_expired}; the client SDK words the gateway's expiry the same way. */
    public static ApiException tokenExpired() {
        return new ApiException(401, "token_expired", "The session token has expired", 0);
    }

    /** Returns a 403 {@code forbidden} with the given message. */
    public static ApiException forbidden(String message) {
        return new ApiException(403, "forbidden", message, 0);
    }

    /** Returns the 403 for a body that names another user than the token's. */
    public static ApiException impersonation() {
        return forbidden("Cannot act as another user");
    }

    /** Returns a 404 {@code not_found} with the given message. */
    public static ApiException notFound(String message) {
        return new ApiException(404, "not_found", message, 0);
    }

    /** Returns the 404 {@code user_not_found} of a mint for an unknown user. */
    public static ApiException userNotFound() {
        return new ApiException(404, "user_not_found", "User not found; create it with POST /v1/users first", 0);
    }

    /** Returns the 403 {@code calls_disabled} of a call operation on a tenant whose calls are off. */
    public static ApiException callsDisabled() {
        return new ApiException(403, "calls_disabled", "Calls are disabled for this tenant", 0);
    }

    /** Returns a 409 {@code conflict} with the given message. */
    public static ApiException conflict(String message) {
        return new ApiException(409, "conflict", message, 0);
    }

    /** Returns a 413 {@code payload_too_large}. */
    public static ApiException payloadTooLarge(long limitBytes) {
        return new ApiException(413, "payload_too_large", "Body over " + limitBytes + " bytes", 0);
    }

    /** Returns a 413 {@code payload_too_large} with the given message (an upload over a limit it names). */
    public static ApiException payloadTooLarge(String message) {
        return new ApiException(413, "payload_too_large", message, 0);
    }

    /** Returns tus's 412 {@code precondition_failed}: a missing or unsupported {@code Tus-Resumable}. */
    public static ApiException preconditionFailed(String message) {
        return new ApiException(412, "precondition_failed", message, 0);
    }

    /** Returns a 415 {@code unsupported_media_type} (a tus PATCH of another content type). */
    public static ApiException unsupportedMediaType(String message) {
        return new ApiException(415, "unsupported_media_type", message, 0);
    }

    /** Returns a 416 {@code range_not_satisfiable} (a {@code Range} beyond a file's end). */
    public static ApiException rangeNotSatisfiable(String message) {
        return new ApiException(416, "range_not_satisfiable", message, 0);
    }

    /** Returns tus's 460 {@code checksum_mismatch}: a PATCH whose bytes do not match its {@code Upload-Checksum}. */
    public static ApiException checksumMismatch() {
        return new ApiException(460, "checksum_mismatch", "Upload-Checksum does not match the bytes sent", 0);
    }

    /** Returns a 429 {@code rate_limited} that tells the client to wait {@code retryAfterSeconds}. */
    public static ApiException rateLimited(long retryAfterSeconds) {
        return new ApiException(429, "rate_limited", "Too many requests; retry later", Math.max(1, retryAfterSeconds));
    }

    /** Returns a 500 {@code internal}, for a bug reported through an ack; the details stay in the log. */
    public static ApiException internal() {
        return new ApiException(500, "internal", "Internal server error", 0);
    }

    /** Returns the HTTP status. */
    public int status() {
        return status;
    }

    /** Returns the contract's error code, e.g. {@code not_found}. */
    public String code() {
        return code;
    }

    /** Returns the seconds for the {@code Retry-After} header, or 0 when the error has none. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
