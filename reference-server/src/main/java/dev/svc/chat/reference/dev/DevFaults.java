package dev.svc.chat.reference.dev;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The faults a tenant injected through the dev API: its own REST requests held for a while, answered with an
 * error status, or both, for the next N requests or until a time, optionally only those whose path starts
 * with a prefix. A fault touches
 * only requests made with the injecting tenant's key or its users' tokens, never another tenant's.
 */
public final class DevFaults {

    /**
     * One injected fault.
     *
     * @param id its id, for the list
     * @param status the HTTP status answered: 429, 500, 502, 503 or 504; 0 to answer as usual after the latency
     * @param latencyMs how long the request is held before it is answered, 0 for none
     * @param retryAfterSeconds the {@code Retry-After} header's seconds, 0 for none
     * @param remaining how many more requests it answers, or -1 while {@code until} holds
     * @param until when it stops, or null to count requests only
     * @param routePrefix the path prefix it applies to
     */
    public record Fault(long id, int status, long latencyMs, long retryAfterSeconds, long remaining, Instant until,
                        String routePrefix) {
    }

    private final Clock clock;
    private final Map<String, List<Fault>> byTenant = new ConcurrentHashMap<>();
    private long nextId = 1;

    /** Creates an empty set of faults, telling time by {@code clock}. */
    public DevFaults(Clock clock) {
        this.clock = clock;
    }

    /** Adds a fault for the tenant and returns it. */
    public synchronized Fault add(String tenantId, int status, long latencyMs, long retryAfterSeconds, Long count,
                                  Instant until, String routePrefix) {
        Fault fault = new Fault(nextId++, status, latencyMs, retryAfterSeconds, count != null ? count : -1, until,
                routePrefix);
        byTenant.computeIfAbsent(tenantId, k -> new ArrayList<>()).add(fault);
        return fault;
    }

    /** Returns the tenant's faults still in force. */
    public synchronized List<Fault> list(String tenantId) {
        List<Fault> faults = byTenant.get(tenantId);
        if (faults == null) {
            return List.of();
        }
        Instant now = clock.instant();
        faults.removeIf(f -> !inForce(f, now));
        return List.copyOf(faults);
    }

    /** Removes every fault of the tenant. */
    public synchronized void clear(String tenantId) {
        byTenant.remove(tenantId);
    }

    /** Returns whether any tenant has a fault (the fast path of every request is one map check). */
    public boolean any() {
        return !byTenant.isEmpty();
    }

    /**
     * Returns the fault that answers this request of the tenant, counting it, or null. The first fault in
     * force whose prefix matches {@code path} answers.
     */
    public synchronized Fault take(String tenantId, String path) {
        List<Fault> faults = byTenant.get(tenantId);
        if (faults == null) {
            return null;
        }
        Instant now = clock.instant();
        for (int i = 0; i < faults.size(); i++) {
            Fault fault = faults.get(i);
            if (!inForce(fault, now) || !path.startsWith(fault.routePrefix())) {
                continue;
            }
            if (fault.remaining() > 0) {
                Fault counted = new Fault(fault.id(), fault.status(), fault.latencyMs(), fault.retryAfterSeconds(),
                        fault.remaining() - 1, fault.until(), fault.routePrefix());
                faults.set(i, counted);
            }
            return fault;
        }
        faults.removeIf(f -> !inForce(f, now));
        if (faults.isEmpty()) {
            byTenant.remove(tenantId);
        }
        return null;
    }

    private static boolean inForce(Fault fault, Instant now) {
        if (fault.remaining() == 0) {
            return false;
        }
        return fault.until() == null || now.isBefore(fault.until());
    }
}
