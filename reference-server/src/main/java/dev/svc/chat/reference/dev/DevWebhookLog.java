package dev.svc.chat.reference.dev;

import dev.svc.chat.reference.webhook.WebhookObserver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest webhook deliveries of each tenant, for the dev API and the console: type, status, attempts, the
 * last failure and the next retry, pushed to the dev channel as {@code webhook} when they change. The body is
 * kept (for a redelivery) but never shown; the URL and the signature are not kept.
 */
public final class DevWebhookLog implements WebhookObserver {

    /** The deliveries kept per tenant. */
    public static final int CAPACITY = 200;
    /** The dev channel's event of a delivery that changed. */
    public static final String EVENT = "webhook";

    /**
     * A delivery as the dev API shows it.
     *
     * @param id its {@code webhook-id}
     * @param type its event type, e.g. {@code message.new}
     * @param status {@code pending} (an attempt is due or under way), {@code retrying} (the last attempt
     *     failed, another is due), {@code delivered} (answered 2xx) or {@code failed} (gave up)
     * @param attempts the attempts made, redeliveries included
     * @param redeliveries how often it was redelivered
     * @param createdAt when it was first queued
     * @param lastAttemptAt when the last attempt ended, or null
     * @param lastFailure what went wrong on the last attempt ({@code HTTP 500}, an I/O error), or null
     * @param nextAttemptAt when the next retry is due, or null
     */
    public record Delivery(String id, String type, String status, int attempts, int redeliveries,
                           Instant createdAt, Instant lastAttemptAt, String lastFailure, Instant nextAttemptAt) {
    }

    /** What a redelivery needs: the type and body of a delivery. */
    record Stored(String type, String body) {
    }

    private final DevChannel channel;
    private final Map<String, Map<String, Entry>> byTenant = new ConcurrentHashMap<>();

    /** Creates an empty log that pushes changes to {@code channel}. */
    public DevWebhookLog(DevChannel channel) {
        this.channel = channel;
    }

    @Override
    public void queued(String tenantId, String id, String type, String body, Instant at, boolean redelivery) {
        Map<String, Entry> entries = byTenant.computeIfAbsent(tenantId, k -> new LinkedHashMap<>());
        Delivery view;
        synchronized (entries) {
            Entry entry = entries.get(id);
            if (entry == null) {
                entry = new Entry(id, type, body, at);
                entries.put(id, entry);
                if (entries.size() > CAPACITY) {
                    entries.remove(entries.keySet().iterator().next());
                }
            }
            if (redelivery) {
                entry.redeliveries++;
            }
            entry.status = "pending";
            entry.nextAttemptAt = at;
            view = entry.view();
        }
        channel.publish(tenantId, EVENT, view);
    }

    @Override
    public void attempted(String tenantId, String id, int attempt, Instant at, String failure, Instant retryAt) {
        Map<String, Entry> entries = byTenant.get(tenantId);
        if (entries == null) {
            return;
        }
        Delivery view;
        synchronized (entries) {
            Entry entry = entries.get(id);
            if (entry == null) {
                return; // older than what is kept
            }
            entry.attempts++;
            entry.lastAttemptAt = at;
            entry.lastFailure = failure;
            entry.nextAttemptAt = retryAt;
            entry.status = failure == null ? "delivered" : retryAt != null ? "retrying" : "failed";
            view = entry.view();
        }
        channel.publish(tenantId, EVENT, view);
    }

    /** Returns the tenant's latest {@code limit} deliveries, newest last. */
    public List<Delivery> latest(String tenantId, int limit) {
        Map<String, Entry> entries = byTenant.get(tenantId);
        if (entries == null) {
            return List.of();
        }
        synchronized (entries) {
            List<Delivery> all = new ArrayList<>();
            for (Entry entry : entries.values()) {
                all.add(entry.view());
            }
            return List.copyOf(all.subList(Math.max(0, all.size() - limit), all.size()));
        }
    }

    /** Returns the delivery {@code id} of the tenant with what a redelivery needs, or null (another tenant's too). */
    Stored stored(String tenantId, String id) {
        Map<String, Entry> entries = byTenant.get(tenantId);
        if (entries == null) {
            return null;
        }
        synchronized (entries) {
            Entry entry = entries.get(id);
            return entry == null ? null : new Stored(entry.type, entry.body);
        }
    }

    /** Returns the status of delivery {@code id} of the tenant, or null. */
    String status(String tenantId, String id) {
        Map<String, Entry> entries = byTenant.get(tenantId);
        if (entries == null) {
            return null;
        }
        synchronized (entries) {
            Entry entry = entries.get(id);
            return entry == null ? null : entry.status;
        }
    }

    private static final class Entry {
        final String id;
        final String type;
        final String body;
        final Instant createdAt;
        String status;
        int attempts;
        int redeliveries;
        Instant lastAttemptAt;
        String lastFailure;
        Instant nextAttemptAt;

        Entry(String id, String type, String body, Instant createdAt) {
            this.id = id;
            this.type = type;
            this.body = body;
            this.createdAt = createdAt;
        }

        Delivery view() {
            return new Delivery(id, type, status, attempts, redeliveries, createdAt, lastAttemptAt, lastFailure,
                    nextAttemptAt);
        }
    }
}
