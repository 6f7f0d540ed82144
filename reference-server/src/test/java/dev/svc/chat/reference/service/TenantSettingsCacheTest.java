package dev.svc.chat.reference.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TenantSettingsCacheTest {

    private final InMemoryStore store = new InMemoryStore();
    private final AtomicInteger reads = new AtomicInteger();

    TenantSettingsCacheTest() {
        store.createTenant(new TenantRecord("t1", "sk_test_t1", new byte[32]), TenantSettings.defaults(true));
    }

    @Test
    void readsTheStoreOnceThenAgainAfterAnUpdate() {
        TenantSettingsCache cache = new TenantSettingsCache(id -> {
            reads.incrementAndGet();
            return store.settings(id);
        }, Duration.ofHours(1));
        ChatService service = new ChatService(store, Clock.systemUTC(),
                new SendRateLimiter(Clock.systemUTC(), 20, 40), (tenant, room, event, payload) -> { }, cache);
        TenantSettings first = cache.apply("t1");
        assertSame(first, cache.apply("t1"));
        assertEquals(1, reads.get());
        assertNull(first.webhookUrl());
        service.updateSettings("t1", s -> new TenantSettings(s.autoCreateUsers(), s.callsEnabled(),
                "https://example.test/hook", s.webhookSecret()));
        assertEquals("https://example.test/hook", cache.apply("t1").webhookUrl());
        assertEquals(2, reads.get());
    }

    @Test
    void anEntryOlderThanItsMaxAgeIsReadAgain() {
        TenantSettingsCache cache = new TenantSettingsCache(id -> {
            reads.incrementAndGet();
            return store.settings(id);
        }, Duration.ofNanos(1));
        cache.apply("t1");
        long before = System.nanoTime();
        while (System.nanoTime() - before < 10) {
            Thread.onSpinWait(); // a nanosecond on the monotonic clock, not a sleep for synchronisation
        }
        cache.apply("t1");
        assertEquals(2, reads.get());
    }
}
