package dev.svc.chat.reference;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Makes the jar's JVM give memory back after a burst. A flood of connections (10,000 opened and dropped)
 * leaves no state behind, but G1 keeps the heap it grew to, and the dead connections' objects, promoted
 * while the flood lasted, stay in old regions that an idle JVM never collects: the resident size stayed
 * near its peak. So, in the jar only (never in a test's JVM): when a whole period passed without any
 * collection and with the used heap grown by less than {@link #IDLE_GROWTH_BYTES}, and the heap holds much more
 * than after the last compaction, this runs one full collection, which
 * compacts and, with lower free-heap ratios for its length, shrinks the heap. Flags set on the command line
 * win.
 *
 * <p>The ratios are lowered only for that collection: G1 also resizes to them at every marking cycle's remark,
 * and lowered for good they shrank a busy server's heap to some 40 MiB, about twice its live set, where the
 * live set alone passes the occupancy that starts the next cycle, whose remark shrank it again (20 marking
 * cycles and twice the young collections of the JVM's ratios, in the latency benchmark's runs). For the same
 * reason the maximum free ratio is 100 % while the server works (when still at the JVM's default): a remark
 * never shrinks the heap, so the young generation keeps the room the heap was started or grown with (the
 * JVM's 70 % shrank the mostly empty start-up heap from 388 to 96 MiB at the first remark, which the class
 * metadata's first threshold starts seconds after start-up, and young collections came 2 to 3 times as
 * often). Memory goes back when the server is idle, by this check's collection, with its lowered ratios.
 */
final class IdleMemory {

    /** How often the JVM is looked at, in seconds (chosen). */
    static final long PERIOD_SECONDS = 15;
    /** Growth of the used heap since the last compaction that is worth a collection (chosen). */
    static final long SLACK_BYTES = 32L * 1024 * 1024;
    /** Growth of the used heap over a period under which the JVM counts as idle (chosen: some 270 KiB/s). */
    static final long IDLE_GROWTH_BYTES = 4L * 1024 * 1024;
    /** The free-heap ratios of the check's own collection, in the order they are lowered (chosen). */
    private static final String[][] LOWERED = {{"MinHeapFreeRatio", "10"}, {"MaxHeapFreeRatio", "30"}};
    /** The maximum free-heap ratio while the server works: no remark shrinks the heap. */
    static final String BUSY_MAX_FREE_RATIO = "100";

    private final HotSpotDiagnosticMXBean vm;
    /** The ratios this check may lower, with their values (those at the JVM's default, writable), in order. */
    private final List<String[]> lowerable;
    private long lastCollections = -1;
    private long usedAfterCompaction;
    private long usedAtLastTick;

    IdleMemory(HotSpotDiagnosticMXBean vm, List<String[]> lowerable) {
        this.vm = vm;
        this.lowerable = lowerable;
    }

    /**
     * Starts the idle check on a daemon thread, which it returns, after raising the maximum free-heap ratio to
     * {@link #BUSY_MAX_FREE_RATIO} (if it is still the JVM's default); the minimum stays as it is.
     */
    static ScheduledExecutorService returnHeapWhenIdle() {
        IdleMemory check = forThisJvm().keepHeapWhileBusy();
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "svc-ref-idle-memory");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            return t;
        });
        thread.scheduleWithFixedDelay(check::tick, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
        return thread;
    }

    /** Returns a check of this JVM, which may lower the ratios still at their defaults; changes nothing yet. */
    static IdleMemory forThisJvm() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return new IdleMemory(vm, lowerable(vm));
        } catch (RuntimeException | LinkageError e) {
            // Not HotSpot, or the flags are not manageable here: collect with the JVM's ratios.
            return new IdleMemory(null, List.of());
        }
    }

    /**
     * Returns the ratios the check may lower, each as {name, lowered value, value now}: those still at the JVM's
     * default and writable, in the order they are lowered.
     */
    static List<String[]> lowerable(HotSpotDiagnosticMXBean vm) {
        List<String[]> lowerable = new ArrayList<>();
        for (String[] ratio : LOWERED) {
            VMOption option = vm.getVMOption(ratio[0]);
            if (option.getOrigin() == VMOption.Origin.DEFAULT && option.isWriteable()) {
                lowerable.add(new String[] {ratio[0], ratio[1], option.getValue()});
            }
        }
        return lowerable;
    }

    /**
     * Raises the maximum free-heap ratio, if this check may change it, to {@link #BUSY_MAX_FREE_RATIO}, the
     * value its collection puts back; returns this check.
     */
    IdleMemory keepHeapWhileBusy() {
        for (String[] ratio : lowerable) {
            if (ratio[0].equals("MaxHeapFreeRatio")) {
                try {
                    vm.setVMOption(ratio[0], BUSY_MAX_FREE_RATIO);
                    ratio[2] = BUSY_MAX_FREE_RATIO;
                } catch (RuntimeException e) {
                    // refused: G1 resizes to the JVM's ratio
                }
            }
        }
        return this;
    }

    private void tick() {
        long collections = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            collections += Math.max(0, gc.getCollectionCount());
        }
        tick(collections, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                () -> compact(System::gc));
    }

    /**
     * One look at the JVM, which has run {@code collections} collections so far and uses {@code used} bytes of
     * heap: runs {@code compaction} if the JVM is idle and holds much more than after the last compaction.
     */
    void tick(long collections, long used, Runnable compaction) {
        // No collection alone is no sign of rest: a young generation of hundreds of MiB takes longer than a period
        // to fill at a few MiB a second (a server at 1,000 messages a second), and a full collection then is a
        // pause of 0.2 to 1 s in the middle of its work. So the heap must not have grown either.
        boolean idle = collections == lastCollections && used - usedAtLastTick < IDLE_GROWTH_BYTES;
        lastCollections = collections;
        usedAtLastTick = used;
        if (idle && used > usedAfterCompaction + SLACK_BYTES) {
            compaction.run();
            usedAfterCompaction = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            lastCollections = -1; // our own collection is not activity
        }
    }

    /** Runs {@code collection} with the lowerable ratios lowered, then puts back their values. */
    void compact(Runnable collection) {
        int lowered = 0;
        try {
            // Lowered minimum first, put back maximum first: the JVM refuses a maximum below the minimum.
            for (; lowered < lowerable.size(); lowered++) {
                vm.setVMOption(lowerable.get(lowered)[0], lowerable.get(lowered)[1]);
            }
        } catch (RuntimeException e) {
            // refused: collect with what was lowered
        }
        try {
            collection.run();
        } finally {
            for (int i = lowered - 1; i >= 0; i--) {
                vm.setVMOption(lowerable.get(i)[0], lowerable.get(i)[2]);
            }
        }
    }
}
