package dev.svc.chat.bench.support;

import java.lang.management.ManagementFactory;

/** The used heap once garbage is collected, for per-client figures. */
public final class Heap {
    private Heap() {
    }

    /** Collects a few times and returns the lowest used heap seen, in bytes. */
    public static long settled() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(150); // lets the collector's reference processing settle; a measurement, not a test
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
