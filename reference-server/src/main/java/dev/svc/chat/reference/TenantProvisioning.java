package dev.svc.chat.reference;

import dev.svc.chat.reference.auth.RandomIds;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.store.TenantRecord;
import java.util.Optional;

/**
 * The tenants a server starts with: the dev tenant and those configured with {@link ReferenceServer.Builder#tenant},
 * stored unless a durable store has them already (then their token secrets are kept), and tenants made later
 * for tests.
 */
final class TenantProvisioning {

    private final Store store;
    private final ServerOptions options;

    TenantProvisioning(Store store, ServerOptions options) {
        this.store = store;
        this.options = options;
    }

    /** Stores the dev tenant and the configured ones; returns the dev tenant's API key. */
    String provisionAll() {
        String key = provisionDevTenant();
        for (TenantConfig tenant : options.tenants) {
            provision(tenant);
        }
        return key;
    }

    /** Creates another tenant (own key, own token secret, default settings). */
    TenantInfo createTenant() {
        String id = "t_" + RandomIds.base62(12);
        String key = RandomIds.testApiKey();
        store.createTenant(new TenantRecord(id, key, RandomIds.bytes(32)), TenantSettings.defaults(true));
        return new TenantInfo(id, key);
    }

    /**
     * Stores the dev tenant, or on a durable store that has it already, keeps its token secret and its API
     * key unless another key was configured; returns the key.
     */
    private String provisionDevTenant() {
        String devTenant = ReferenceServer.DEV_TENANT_ID;
        Optional<TenantRecord> existing = store.tenant(devTenant);
        if (existing.isPresent()) {
            String key = existing.get().apiKey();
            if (options.apiKey != null && !options.apiKey.equals(key)) {
                store.updateApiKey(devTenant, options.apiKey);
                key = options.apiKey;
            }
            if (options.webhookSecret != null) {
                store.updateSettings(devTenant, s -> s.withWebhookSecret(options.webhookSecret));
            }
            return key;
        }
        String key = options.apiKey != null ? options.apiKey : RandomIds.testApiKey();
        TenantSettings devSettings = TenantSettings.defaults(options.autoCreateUsers);
        if (options.webhookSecret != null) {
            devSettings = devSettings.withWebhookSecret(options.webhookSecret);
        }
        try {
            store.createTenant(new TenantRecord(devTenant, key, RandomIds.bytes(32)), devSettings);
        } catch (RuntimeException e) {
            // Another server on the same database stored it a moment ago: use that one.
            if (store.tenant(devTenant).isPresent()) {
                return provisionDevTenant();
            }
            throw e;
        }
        return key;
    }

    /** Stores a tenant named by a seed file unless the store has it. */
    void ensure(TenantConfig tenant) {
        provision(tenant);
    }

    /** Stores a configured tenant unless the store already has it (a durable store keeps it, and its secret). */
    private void provision(TenantConfig tenant) {
        Optional<TenantRecord> existing = store.tenant(tenant.id());
        if (existing.isPresent()) {
            if (!existing.get().apiKey().equals(tenant.apiKey())) {
                store.updateApiKey(tenant.id(), tenant.apiKey());
            }
            return;
        }
        TenantSettings settings = new TenantSettings(tenant.autoCreateUsers(), tenant.callsEnabled(),
                tenant.webhookUrl(), tenant.webhookSecret() != null ? tenant.webhookSecret()
                : TenantSettings.newWebhookSecret());
        store.createTenant(new TenantRecord(tenant.id(), tenant.apiKey(), RandomIds.bytes(32)), settings);
    }
}
