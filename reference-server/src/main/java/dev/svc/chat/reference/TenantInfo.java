package dev.svc.chat.reference;

/**
 * A tenant of a running {@link ReferenceServer}: its id (the {@code tid} of its tokens) and its API key.
 *
 * @param id the tenant id
 * @param apiKey the tenant's secret API key ({@code sk_test_...})
 */
public record TenantInfo(String id, String apiKey) {

    /** Returns the id only, so that the key never reaches a log by accident. */
    @Override
    public String toString() {
        return "TenantInfo[id=" + id + "]";
    }
}
