package dev.svc.chat.reference.store;

/**
 * The credentials of one tenant. The JWT secret never leaves the server.
 *
 * @param id the tenant id, the {@code tid} claim of its tokens
 * @param apiKey the tenant's secret API key ({@code sk_...})
 * @param jwtSecret the HS256 key of the tenant's session tokens (32 random bytes)
 */
public record TenantRecord(String id, String apiKey, byte[] jwtSecret) {

    /** Copies the secret so that no caller can change it. */
    public TenantRecord {
        jwtSecret = jwtSecret.clone();
    }

    /** Returns a copy of the secret. */
    @Override
    public byte[] jwtSecret() {
        return jwtSecret.clone();
    }

    /** Returns the id only: the key and secret must never reach a log. */
    @Override
    public String toString() {
        return "TenantRecord[" + id + "]";
    }
}
