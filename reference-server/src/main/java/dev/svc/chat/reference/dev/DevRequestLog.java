package dev.svc.chat.reference.dev;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest REST requests of each tenant, for the dev API: method, path, status, duration and the user of
 * the session token (null for the API key). Never a header, a query string or a body, so never a token nor a
 * key; a push device token in a path is replaced by {@code {token}}. A request whose credential names no
 * tenant (missing, forged) is kept by no tenant.
 */
public final class DevRequestLog {

    /** The requests kept per tenant. */
    public static final int CAPACITY = 500;

    /**
     * One request.
     *
     * @param at when it arrived
     * @param method the HTTP method
     * @param route the path, without its query string
     * @param status the answer's status
     * @param durationMs how long it took
     * @param userId the session token's user, or null for the API key
     * @param fault whether an injected fault answered it
     */
    public record Entry(Instant at, String method, String route, int status, double durationMs, String userId,
                        boolean fault) {
    }

    private static final String DEVICES = "/v1/push/devices/";

    private final Map<String, Deque<Entry>> byTenant = new ConcurrentHashMap<>();
    // Told every entry (the dev channel); set before the server starts.
    private volatile java.util.function.BiConsumer<String, Entry> listener = (tenantId, entry) -> { };

    /** Tells {@code listener} every entry added from now on, with its tenant id; it must only enqueue. */
    public void listen(java.util.function.BiConsumer<String, Entry> listener) {
        this.listener = listener;
    }

    /** Records a request of the tenant. */
    public void add(String tenantId, Entry entry) {
        Deque<Entry> entries = byTenant.computeIfAbsent(tenantId, k -> new ArrayDeque<>());
        synchronized (entries) {
            if (entries.size() >= CAPACITY) {
                entries.removeFirst();
            }
            entries.addLast(entry);
        }
        listener.accept(tenantId, entry);
    }

    /** Returns the tenant's latest {@code limit} requests, newest last. */
    public List<Entry> latest(String tenantId, int limit) {
        Deque<Entry> entries = byTenant.get(tenantId);
        if (entries == null) {
            return List.of();
        }
        synchronized (entries) {
            List<Entry> all = new ArrayList<>(entries);
            return List.copyOf(all.subList(Math.max(0, all.size() - limit), all.size()));
        }
    }

    /** Returns the path as the log keeps it: a push device token in it replaced by {@code {token}}. */
    static String route(String path) {
        if (path.startsWith(DEVICES) && path.length() > DEVICES.length()) {
            return DEVICES + "{token}";
        }
        return path;
    }
}
