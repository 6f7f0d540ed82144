package dev.svc.chat.reference.auth;

import dev.svc.chat.reference.store.TenantRecord;
import java.time.Instant;

/**
 * Who makes a request: a tenant backend (API key) or one user of a tenant (session token).
 *
 * @param tenant the tenant
 * @param userId the token's user, or null for an API key
 * @param expiresAt the token's expiry, or null for an API key
 */
public record Principal(TenantRecord tenant, String userId, Instant expiresAt) {

    /** Returns a principal for a tenant's API key. */
    public static Principal apiKey(TenantRecord tenant) {
        return new Principal(tenant, null, null);
    }

    /** Returns whether this principal came from an API key (a tenant backend, nobody's connection). */
    public boolean isApiKey() {
        return userId == null;
    }

    /** Returns the tenant id. */
    public String tenantId() {
        return tenant.id();
    }

    /** Returns whether a session token's expiry has come at {@code now}; never for an API key. */
    public boolean isExpiredAt(Instant now) {
        return expiresAt != null && !expiresAt.isAfter(now);
    }
}
