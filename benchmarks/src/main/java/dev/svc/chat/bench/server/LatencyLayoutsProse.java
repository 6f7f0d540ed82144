package dev.svc.chat.bench.server;

/** What {@link LatencyLayoutsBenchmark}'s section says beside its tables: what makes the tail. */
final class LatencyLayoutsProse {
    private LatencyLayoutsProse() {
    }

    static final String WHY = "Why: to be written from the runs.";
}
