package dev.svc.chat.reference.auth;

import dev.svc.chat.reference.contract.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * The time rules of a session token's claims, applied after its signature checked out: {@code nbf} (when
 * present) and {@code iat} not later than now plus {@link #MAX_CLOCK_SKEW}, and a lifetime
 * ({@code exp - iat}) of at most {@link #MAX_LIFETIME}, the contract's longest {@code expiresIn}, plus the
 * mint's {@link #ROUNDING}. A token breaking one of them is {@code unauthorized}: only a passed {@code exp} is
 * {@code token_expired}, which the caller checks last.
 */
final class TokenTimes {

    /** How far ahead of this server's clock an {@code iat} or {@code nbf} may be (chosen: clocks of hosts drift). */
    static final Duration MAX_CLOCK_SKEW = Duration.ofSeconds(60);

    /** The longest lifetime of a token, {@code exp - iat} (contract: {@code expiresIn} 1 to 86400 s). */
    static final Duration MAX_LIFETIME = Duration.ofHours(24);

    /**
     * How much longer than {@link #MAX_LIFETIME} {@code exp - iat} may be: a mint rounds {@code iat} down and
     * {@code exp} up to whole seconds, so a token lives at least the seconds asked.
     */
    static final Duration ROUNDING = Duration.ofSeconds(1);

    private TokenTimes() {
    }

    /** Throws 401 {@code unauthorized} if {@code nbf} or {@code iat} lies in the future or the lifetime is too long. */
    static void check(Date notBefore, Date issuedAt, Date expiresAt, Instant now) {
        Instant latest = now.plus(MAX_CLOCK_SKEW);
        if (notBefore != null && notBefore.toInstant().isAfter(latest)) {
            throw ApiException.unauthorized();
        }
        Instant iat = issuedAt.toInstant();
        if (iat.isAfter(latest)) {
            throw ApiException.unauthorized();
        }
        if (Duration.between(iat, expiresAt.toInstant()).compareTo(MAX_LIFETIME.plus(ROUNDING)) > 0) {
            throw ApiException.unauthorized();
        }
    }
}
