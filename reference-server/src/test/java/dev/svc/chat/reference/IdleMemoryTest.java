package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The idle check keeps the heap while the server works (G1 resizes to the free-heap ratios at every remark: the
 * maximum is 100 % then) and lowers the ratios only for its own collection.
 */
class IdleMemoryTest {
    private static final long MIB = 1024 * 1024;
    private final HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    private String min;
    private String max;

    @BeforeEach
    void remember() {
        min = vm.getVMOption("MinHeapFreeRatio").getValue();
        max = vm.getVMOption("MaxHeapFreeRatio").getValue();
    }

    @AfterEach
    void restore() {
        // the maximum first: the JVM refuses a minimum above the current maximum
        vm.setVMOption("MaxHeapFreeRatio", max);
        vm.setVMOption("MinHeapFreeRatio", min);
    }

    @Test
    void startingTheCheckRaisesOnlyTheMaximumAndOnlyFromTheJvmsDefault() {
        // another test of this JVM may have set it by management already: then it stays
        boolean jvmDefault = vm.getVMOption("MaxHeapFreeRatio").getOrigin() == VMOption.Origin.DEFAULT;
        IdleMemory.returnHeapWhenIdle().shutdownNow();
        assertEquals(min, vm.getVMOption("MinHeapFreeRatio").getValue());
        assertEquals(jvmDefault ? IdleMemory.BUSY_MAX_FREE_RATIO : max,
                vm.getVMOption("MaxHeapFreeRatio").getValue());
    }

    @Test
    void whileBusyNoRemarkShrinksTheHeapAndTheChecksCollectionPutsThatBack() {
        IdleMemory check = new IdleMemory(vm, List.of(new String[] {"MinHeapFreeRatio", "10", min},
                new String[] {"MaxHeapFreeRatio", "30", max})).keepHeapWhileBusy();
        assertEquals("100", vm.getVMOption("MaxHeapFreeRatio").getValue());
        assertEquals(min, vm.getVMOption("MinHeapFreeRatio").getValue());
        List<String> during = new ArrayList<>();
        check.compact(() -> {
            during.add(vm.getVMOption("MinHeapFreeRatio").getValue());
            during.add(vm.getVMOption("MaxHeapFreeRatio").getValue());
        });
        assertEquals(List.of("10", "30"), during);
        assertEquals("100", vm.getVMOption("MaxHeapFreeRatio").getValue());
        assertEquals(min, vm.getVMOption("MinHeapFreeRatio").getValue());
    }

    @Test
    void theChecksCollectionRunsWithLowRatiosThenPutsThemBack() {
        List<String> during = new ArrayList<>();
        new IdleMemory(vm, List.of(new String[] {"MinHeapFreeRatio", "10", min},
                new String[] {"MaxHeapFreeRatio", "30", max})).compact(() -> {
                    during.add(vm.getVMOption("MinHeapFreeRatio").getValue());
                    during.add(vm.getVMOption("MaxHeapFreeRatio").getValue());
                });
        assertEquals(List.of("10", "30"), during);
        assertEquals(min, vm.getVMOption("MinHeapFreeRatio").getValue());
        assertEquals(max, vm.getVMOption("MaxHeapFreeRatio").getValue());
    }

    @Test
    void aServerThatAllocatesWithoutCollectingForAWholePeriodIsNotIdle() {
        // A young generation of hundreds of MiB fills for longer than a period at a few MiB a second: a server
        // that serves 1,000 messages a second can pass 15 s without a collection.
        IdleMemory check = new IdleMemory(vm, List.of());
        AtomicInteger compactions = new AtomicInteger();
        long used = 100 * MIB;
        for (int period = 0; period < 4; period++) {
            check.tick(7, used, compactions::incrementAndGet);
            used += 60 * MIB;
        }
        assertEquals(0, compactions.get(), "full collections of a working server");
    }

    @Test
    void aJvmThatNeitherCollectsNorAllocatesForAWholePeriodIsIdle() {
        IdleMemory check = new IdleMemory(vm, List.of());
        AtomicInteger compactions = new AtomicInteger();
        check.tick(7, 300 * MIB, compactions::incrementAndGet);
        check.tick(7, 300 * MIB + 200 * 1024, compactions::incrementAndGet);
        assertEquals(1, compactions.get());
    }

    @Test
    void aRatioSetOnTheCommandLineOrByManagementIsNotLowered() {
        vm.setVMOption("MaxHeapFreeRatio", "60"); // its origin is no longer the JVM's default
        assertTrue(IdleMemory.lowerable(vm).stream().noneMatch(r -> r[0].equals("MaxHeapFreeRatio")));
    }
}
