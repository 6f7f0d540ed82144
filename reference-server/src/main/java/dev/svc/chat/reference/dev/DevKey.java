package dev.svc.chat.reference.dev;

import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.store.TenantRecord;
import dev.svc.chat.reference.store.Store;
import io.javalin.http.Context;

/** The one check of every dev API route: the dev API is on, and the request's API key names a tenant. */
final class DevKey {

    private DevKey() {
    }

    /** Returns the tenant of the request's API key; 403 when the dev API is off, 401 without a valid key. */
    static TenantRecord tenant(DevAccess access, Store store, Context ctx) {
        if (!access.devApi()) {
            throw ApiException.forbidden("The dev API is off: the server listens on a non-loopback address"
                    + " (start it with --dev-api on to allow it)");
        }
        String key = ctx.header("x-api-key");
        if (key == null || !key.startsWith("sk_")) {
            throw ApiException.unauthorized();
        }
        return store.tenantByApiKey(key).orElseThrow(ApiException::unauthorized);
    }
}
