package dev.svc.chat.reference.service;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per key (tenant and user): {@code perSecond} refill, {@code burst} capacity. Time comes
 * from the injected clock so tests are exact.
 */
public final class SendRateLimiter {

    private final Clock clock;
    private final double perSecond;
    private final int burst;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    /** Creates a limiter; {@code perSecond} must be positive and {@code burst} at least 1. */
    public SendRateLimiter(Clock clock, double perSecond, int burst) {
        if (!(perSecond > 0) || burst < 1) {
            throw new IllegalArgumentException("perSecond must be > 0 and burst >= 1");
        }
        this.clock = clock;
        this.perSecond = perSecond;
        this.burst = burst;
    }

    /** Takes one token for {@code key}; returns 0 if granted, else the whole seconds to wait (at least 1). */
    public long tryAcquire(String key) {
        Bucket bucket = buckets.computeIfAbsent(key, k -> new Bucket(burst, nowNanos()));
        synchronized (bucket) {
            long now = nowNanos();
            double elapsed = Math.max(0, now - bucket.updatedNanos) / 1e9;
            bucket.tokens = Math.min(burst, bucket.tokens + elapsed * perSecond);
            bucket.updatedNanos = now;
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - bucket.tokens) / perSecond));
        }
    }

    private long nowNanos() {
        java.time.Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private static final class Bucket {
        double tokens;
        long updatedNanos;

        Bucket(double tokens, long updatedNanos) {
            this.tokens = tokens;
            this.updatedNanos = updatedNanos;
        }
    }
}
