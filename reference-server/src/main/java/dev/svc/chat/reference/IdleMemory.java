package dev.svc.chat.reference;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Makes the jar's JVM give memory back after a burst. A flood of connections (10,000 opened and dropped)
 * leaves no state behind, but G1 keeps the heap it grew to, and the dead connections' objects, promoted
 * while the flood lasted, stay in old regions that an idle JVM never collects: the resident size stayed
 * near its peak. So, in the jar only (never in a test's JVM): when a whole period passed without any
 * collection and the heap holds much more than after the last one, this runs one full collection, which
 * compacts and, with a lower free-heap ratio, shrinks the heap. Flags set on the command line win.
 */
final class IdleMemory {

    /** How often the JVM is looked at, in seconds (chosen). */
    static final long PERIOD_SECONDS = 15;
    /** Growth of the used heap since the last compaction that is worth a collection (chosen). */
    static final long SLACK_BYTES = 32L * 1024 * 1024;

    private long lastCollections = -1;
    private long usedAfterCompaction;

    private IdleMemory() {
    }

    /** Lowers the free-heap ratios (unless set) and starts the idle check on a daemon thread. */
    static void returnHeapWhenIdle() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            // Lower the minimum first: the JVM refuses a maximum below the current minimum.
            setIfDefault(vm, "MinHeapFreeRatio", "10");
            setIfDefault(vm, "MaxHeapFreeRatio", "30");
        } catch (RuntimeException | LinkageError e) {
            // Not HotSpot, or the flags are not manageable here: keep the JVM's defaults.
        }
        IdleMemory check = new IdleMemory();
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "svc-ref-idle-memory");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            return t;
        });
        thread.scheduleWithFixedDelay(check::tick, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    private void tick() {
        long collections = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            collections += Math.max(0, gc.getCollectionCount());
        }
        long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        boolean idle = collections == lastCollections;
        lastCollections = collections;
        if (idle && used > usedAfterCompaction + SLACK_BYTES) {
            System.gc();
            usedAfterCompaction = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            lastCollections = -1; // our own collection is not activity
        }
    }

    private static void setIfDefault(HotSpotDiagnosticMXBean vm, String name, String value) {
        VMOption option = vm.getVMOption(name);
        if (option.getOrigin() == VMOption.Origin.DEFAULT && option.isWriteable()) {
            vm.setVMOption(name, value);
        }
    }
}
