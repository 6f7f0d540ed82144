package dev.svc.chat.bench.files;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The used heap after a collection, sampled while a transfer runs: every {@code periodMillis} it forces a
 * collection and reads the heap in use, keeping the largest. What a transfer holds shows above the baseline taken
 * the same way before it.
 */
final class HeapSampler implements AutoCloseable {
    private final AtomicLong max = new AtomicLong();
    private final AtomicInteger samples = new AtomicInteger();
    private final Thread thread;
    private volatile boolean stopped;

    HeapSampler(long periodMillis) {
        thread = new Thread(() -> {
            while (!stopped) {
                System.gc();
                long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                max.accumulateAndGet(used, Math::max);
                samples.incrementAndGet();
                LockSupport.parkNanos(periodMillis * 1_000_000L); // the sampling period, not a synchronisation
            }
        }, "heap-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /** The largest used heap seen after a collection, in bytes. */
    long max() {
        return max.get();
    }

    /** How many samples were taken. */
    int samples() {
        return samples.get();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(10_000);
    }
}
