package dev.svc.chat.reference.gateway;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Publishes presence in batches: a tenant with flips is marked dirty, and one thread publishes every dirty
 * tenant's batch {@code interval} after the first flip (a flip to offline at least {@code interval} after
 * it happened, so that a quick reconnect cancels it). A reconnect storm then costs each connection one
 * frame per user whose state really changed in the interval, instead of two frames per reconnect under a
 * global lock, so outbound queues do not overflow and drop connections that would reconnect and storm again.
 */
final class PresenceFlusher implements AutoCloseable {

    /** The default batching interval (chosen: short enough to look immediate to a person). */
    static final Duration DEFAULT_INTERVAL = Duration.ofMillis(50);

    private final Frames frames;
    private final Duration interval;
    private final Set<TenantPresence> dirty = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ScheduledThreadPoolExecutor thread;

    PresenceFlusher(Frames frames, Duration interval) {
        this.frames = frames;
        this.interval = interval;
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "svc-ref-presence");
            t.setDaemon(true);
            return t;
        });
    }

    /** Publishes the tenant's pending flips at the next flush. */
    void markDirty(TenantPresence tenant) {
        dirty.add(tenant);
        if (scheduled.compareAndSet(false, true)) {
            try {
                thread.schedule(this::flush, interval.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // closed: the gateway is shutting down and every connection is closing
            }
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }

    private void flush() {
        // Cleared first: a flip during this flush schedules the next one, so none waits longer than needed.
        scheduled.set(false);
        for (TenantPresence tenant : List.copyOf(dirty)) {
            dirty.remove(tenant);
            TenantPresence.Batch batch = tenant.drain(System.nanoTime(), interval.toNanos());
            if (batch != null) {
                publish(batch);
            }
            if (tenant.hasPending()) {
                markDirty(tenant); // offline flips held back by the grace: the next flush looks again
            }
        }
    }

    private void publish(TenantPresence.Batch batch) {
        Map<TenantPresence.Change, OutFrame> encoded = new LinkedHashMap<>();
        for (TenantPresence.Change change : batch.changes()) {
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("userId", change.userId());
            payload.put("online", change.online());
            payload.put("at", change.at());
            encoded.put(change, frames.event(FanOut.TENANT_PRESENCE, payload));
        }
        for (Map.Entry<GatewayConnection, Long> target : batch.connections().entrySet()) {
            long registered = target.getValue();
            for (Map.Entry<TenantPresence.Change, OutFrame> change : encoded.entrySet()) {
                if (change.getKey().concerns(registered)) {
                    target.getKey().deliver(change.getValue());
                }
            }
        }
    }
}
