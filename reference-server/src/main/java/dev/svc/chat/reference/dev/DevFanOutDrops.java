package dev.svc.chat.reference.dev;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fault "dropped fan-out to one user": the realtime room events ({@code new-message},
 * {@code message-updated}, {@code room-read}, calls) that would reach a user's connections are not sent to
 * them, for the next N events or until a time. The change itself is stored as usual: a client that missed an
 * event recovers it from history or changes, as after any lost frame. Scoped to the tenant that injected it.
 */
public final class DevFanOutDrops {

    /**
     * One drop.
     *
     * @param userId whose connections miss the events
     * @param remaining how many more events it drops, or -1 while {@code until} holds
     * @param until when it stops, or null to count events only
     */
    public record Drop(String userId, long remaining, Instant until) {
    }

    private final Clock clock;
    private final Map<String, Map<String, Drop>> byTenant = new ConcurrentHashMap<>();

    /** Creates an empty set of drops, telling time by {@code clock}. */
    public DevFanOutDrops(Clock clock) {
        this.clock = clock;
    }

    /** Drops the user's next {@code count} events, or those until {@code until}; replaces an earlier drop. */
    public synchronized Drop add(String tenantId, String userId, Long count, Instant until) {
        Drop drop = new Drop(userId, count != null ? count : -1, until);
        byTenant.computeIfAbsent(tenantId, k -> new ConcurrentHashMap<>()).put(userId, drop);
        return drop;
    }

    /** Returns the tenant's drops in force, by user id. */
    public synchronized List<Drop> list(String tenantId) {
        Map<String, Drop> drops = byTenant.get(tenantId);
        if (drops == null) {
            return List.of();
        }
        Instant now = clock.instant();
        drops.values().removeIf(d -> !inForce(d, now));
        List<Drop> list = new ArrayList<>(drops.values());
        list.sort(java.util.Comparator.comparing(Drop::userId));
        return list;
    }

    /** Removes every drop of the tenant. */
    public synchronized void clear(String tenantId) {
        byTenant.remove(tenantId);
    }

    /** Returns whether any tenant has a drop (the fast path of every event is one map check). */
    public boolean any() {
        return !byTenant.isEmpty();
    }

    /**
     * Returns which of {@code memberIds} miss this event of the tenant, counting the event once for each of
     * them; empty when none.
     */
    public synchronized List<String> take(String tenantId, List<String> memberIds) {
        Map<String, Drop> drops = byTenant.get(tenantId);
        if (drops == null) {
            return List.of();
        }
        Instant now = clock.instant();
        List<String> dropped = new ArrayList<>();
        for (String member : memberIds) {
            Drop drop = drops.get(member);
            if (drop == null) {
                continue;
            }
            if (!inForce(drop, now)) {
                drops.remove(member);
                continue;
            }
            dropped.add(member);
            if (drop.remaining() > 0) {
                Drop counted = new Drop(member, drop.remaining() - 1, drop.until());
                if (inForce(counted, now)) {
                    drops.put(member, counted);
                } else {
                    drops.remove(member);
                }
            }
        }
        if (drops.isEmpty()) {
            byTenant.remove(tenantId);
        }
        return dropped;
    }

    private static boolean inForce(Drop drop, Instant now) {
        return drop.remaining() != 0 && (drop.until() == null || now.isBefore(drop.until()));
    }
}
