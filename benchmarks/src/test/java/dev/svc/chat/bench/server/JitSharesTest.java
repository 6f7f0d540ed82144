package dev.svc.chat.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.bench.support.ProcessCounters;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compilers' shares a warm-up settles on: read from /proc, worst of the known, printed in the counts' order. */
class JitSharesTest {

    @Test
    void theWorstShareLeavesUnknownOnesOut() {
        assertEquals(0.12, JitShares.worst(new double[] {0.04, Double.NaN, 0.12}));
        assertEquals(0.0, JitShares.worst(new double[] {Double.NaN, Double.NaN, Double.NaN}));
    }

    @Test
    void sharesArePrintedSenderServerReceiverAsTheCountsAre() {
        double[] senderReceiverServer = {0.04, 0.01, 0.12};
        assertEquals("JIT 4 % / 12 % / 1 %", JitShares.describe(senderReceiverServer, true));
        assertEquals("JIT 4 % / 12 %", JitShares.describe(senderReceiverServer, false));
        assertEquals("JIT - / 12 % / 1 %", JitShares.describe(new double[] {Double.NaN, 0.01, 0.12}, true));
        assertEquals("2 pass(es), the compilers' largest share of a round 21 %, then 4 %",
                JitShares.settled(List.of(0.21, 0.04)));
    }

    @Test
    void aJvmsShareIsItsCompilersCpuOverItsCpu() {
        long self = ProcessHandle.current().pid();
        JitShares jit = JitShares.start(new long[] {self, self, self});
        // Work until the kernel counted 20 clock ticks (0.2 s) of this JVM's CPU, within a deadline.
        long startTicks = ProcessCounters.of(self).cpuTicks();
        long deadline = System.nanoTime() + 60_000_000_000L;
        long spun = 0;
        while (ProcessCounters.of(self).cpuTicks() - startTicks < 20) {
            assertTrue(System.nanoTime() < deadline, "20 ticks of CPU within 60 s");
            for (int i = 0; i < 100_000; i++) {
                spun += Long.numberOfTrailingZeros(spun + i);
            }
        }
        double[] shares = jit.shares();
        assertTrue(spun > 0);
        for (double share : shares) {
            assertFalse(Double.isNaN(share), "this JVM took CPU, so its share is known");
            assertTrue(share >= 0 && share <= 1, "a share of the JVM's CPU: " + share);
        }
    }
}
