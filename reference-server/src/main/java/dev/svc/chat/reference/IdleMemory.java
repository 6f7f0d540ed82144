package dev.svc.chat.reference;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;

/**
 * Makes the jar's JVM give memory back after a burst. A flood of connections (10,000 opened and dropped)
 * leaves no state behind, but G1 keeps the heap it grew to, so the resident size stayed near its peak. With
 * a periodic collection when idle and a lower free-heap ratio, G1 shrinks the heap again. Flags the
 * operator set on the command line are left alone; a JVM without these flags is left as it is.
 */
final class IdleMemory {

    /** How often an idle G1 collects, in milliseconds (chosen). */
    static final long PERIODIC_GC_MILLIS = 15_000;

    private IdleMemory() {
    }

    /** Sets the manageable G1 flags that return heap when idle, unless already set. */
    static void returnHeapWhenIdle() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            setIfDefault(vm, "G1PeriodicGCInterval", Long.toString(PERIODIC_GC_MILLIS));
            // Lower the minimum first: the JVM refuses a maximum below the current minimum.
            setIfDefault(vm, "MinHeapFreeRatio", "10");
            setIfDefault(vm, "MaxHeapFreeRatio", "30");
        } catch (RuntimeException | LinkageError e) {
            // Not HotSpot, or a flag that does not exist or is not manageable here: keep the JVM's defaults.
        }
    }

    private static void setIfDefault(HotSpotDiagnosticMXBean vm, String name, String value) {
        VMOption option = vm.getVMOption(name);
        if (option.getOrigin() == VMOption.Origin.DEFAULT && option.isWriteable()) {
            vm.setVMOption(name, value);
        }
    }
}
