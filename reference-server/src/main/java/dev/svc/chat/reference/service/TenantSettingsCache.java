package dev.svc.chat.reference.service;

import dev.svc.chat.reference.model.TenantSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A tenant's settings as the event paths read them (every webhook-bearing event asks for the webhook URL
 * and secret): read from the store at most once per {@code maxAge} per tenant, and forgotten at once when
 * this server updates them ({@link #invalidate}). Another server on the same database updating them is
 * seen within {@code maxAge}. At most one entry per tenant.
 */
public final class TenantSettingsCache implements Function<String, TenantSettings> {

    /** How long settings read from the store are used (chosen: short, for servers sharing a database). */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(1);

    private final Function<String, TenantSettings> source;
    private final long maxAgeNanos;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /** Caches what {@code source} answers for {@code maxAge}. */
    public TenantSettingsCache(Function<String, TenantSettings> source, Duration maxAge) {
        this.source = source;
        this.maxAgeNanos = maxAge.toNanos();
    }

    /** Returns the tenant's settings (null if it has none), from the cache when fresh enough. */
    @Override
    public TenantSettings apply(String tenantId) {
        long now = System.nanoTime();
        Entry entry = entries.get(tenantId);
        if (entry != null && entry.settings != null && now - entry.readAt < maxAgeNanos) {
            return entry.settings;
        }
        TenantSettings settings = source.apply(tenantId);
        if (settings != null) {
            Entry read = new Entry(settings, now);
            // an invalidation after this read began wins: what was read may be the old settings
            entries.compute(tenantId, (k, old) -> old != null && old.readAt - now > 0 ? old : read);
        }
        return settings;
    }

    /** Forgets the tenant's settings: the next read goes to the store, and a read already under way is not kept. */
    public void invalidate(String tenantId) {
        entries.put(tenantId, new Entry(null, System.nanoTime()));
    }

    /** Settings read at {@code readAt}; null settings: forgotten at {@code readAt} (an invalidation). */
    private record Entry(TenantSettings settings, long readAt) {
    }
}
