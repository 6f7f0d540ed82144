package dev.svc.chat.reference.http;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.store.Store;
import io.javalin.http.Context;

/**
 * Reads the credential a route requires. Each route accepts exactly one kind: the other kind, or none, is
 * 401 {@code unauthorized}, so a session token can never reach an API-key route or the reverse. A request
 * that brought only the other kind is told which one the route takes.
 */
public final class Credentials {

    private final Store store;
    private final SessionTokens tokens;

    /** Creates the reader over the store's tenants and the session tokens. */
    public Credentials(Store store, SessionTokens tokens) {
        this.store = store;
        this.tokens = tokens;
    }

    /** Returns the tenant of the {@code x-api-key} header, else throws 401. */
    Principal apiKey(Context ctx) {
        String key = ctx.header("x-api-key");
        if (key == null && bearer(ctx.header("Authorization"))) {
            throw ApiException.wrongCredential(true);
        }
        if (key == null || !key.startsWith("sk_")) {
            throw ApiException.unauthorized();
        }
        return store.tenantByApiKey(key).map(Principal::apiKey).orElseThrow(ApiException::unauthorized);
    }

    /** Returns the user of the {@code Authorization: Bearer} session token, else throws 401. */
    public Principal session(Context ctx) {
        return session(ctx.header("Authorization"), ctx.header("x-api-key"));
    }

    /**
     * Returns the user of {@code authorization}, an {@code Authorization} header's value or null, else throws
     * 401; a request with only an {@code x-api-key} header ({@code apiKey}) is told that the route takes a token.
     */
    Principal session(String authorization, String apiKey) {
        if (authorization == null && apiKey != null) {
            throw ApiException.wrongCredential(false);
        }
        return session(authorization);
    }

    /** Returns the user of {@code header}, an {@code Authorization} header's value or null, else throws 401. */
    Principal session(String header) {
        if (!bearer(header)) {
            throw ApiException.unauthorized();
        }
        // SessionTokens refuses an "sk_" string, so an API key sent as a bearer is unauthorized too.
        return tokens.verify(header.substring(7).trim());
    }

    private static boolean bearer(String header) {
        return header != null && header.length() >= 7 && header.regionMatches(true, 0, "Bearer ", 0, 7);
    }
}
