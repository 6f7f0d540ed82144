package dev.svc.chat.reference.auth;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The principals of tokens that passed the full check (parse, HS256 signature with the tenant's secret,
 * claims), keyed by the token string (one string per token: only the canonical spelling passes, see
 * {@link CanonicalJws}), so that a client's every request does not parse and HMAC its token
 * again. Bounded: when it holds {@link #MAX_ENTRIES}, it is emptied and fills again. Only what passed the
 * full check goes in; the expiry is still checked on every use (a principal keeps its {@code exp}), and the
 * tenant comes from the token's own verified {@code tid}. Token strings are never logged nor exposed.
 */
final class VerifiedTokens {

    /** The most tokens remembered at once (chosen: a few MiB at most). */
    static final int MAX_ENTRIES = 10_000;

    private final Map<String, Principal> verified = new ConcurrentHashMap<>();

    /** Returns the principal of an already verified token, or null. */
    Principal get(String token) {
        return verified.get(token);
    }

    /** Remembers a token that passed the full check. */
    void put(String token, Principal principal) {
        if (verified.size() >= MAX_ENTRIES) {
            verified.clear();
        }
        verified.put(token, principal);
    }

    /** Returns how many tokens are remembered (tests). */
    int size() {
        return verified.size();
    }
}
