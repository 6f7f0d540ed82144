package dev.svc.chat.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads pauses, their evacuation and the time to safepoint from a JDK 17 G1 log (lines as the JVM writes them). */
class GcLogTest {

    @Test
    void readsPausesPhasesAndSafepointsAfterTheMark(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("gc.log");
        Files.writeString(file, "[0.030s][info][gc] Using G1\n"
                + "[2.800s][info][gc       ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(64M) 9.000ms\n");
        GcLog log = new GcLog(file);
        long mark = log.mark();
        Files.writeString(file, String.join("\n",
                "[3.129s][info][gc,phases] GC(1)   Pre Evacuate Collection Set: 0.1ms",
                "[3.129s][info][gc,phases] GC(1)   Evacuate Collection Set: 7.2ms",
                "[3.129s][info][gc,phases] GC(1)   Other: 0.1ms",
                "[3.129s][info][gc       ] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(64M) 7.679ms",
                "[3.129s][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 322204271 ns,"
                        + " Reaching safepoint: 4838 ns, Cleanup: 20110 ns, At safepoint: 7701625 ns,"
                        + " Total: 7726573 ns",
                "[3.404s][info][gc,phases] GC(2)   Evacuate Collection Set: 5.6ms",
                "[3.404s][info][gc       ] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 13M->6M(64M) 6.043ms",
                "[3.500s][info][safepoint] Safepoint \"Cleanup\", Time since last: 1047990659 ns,"
                        + " Reaching safepoint: 10108402 ns, Cleanup: 47230 ns, At safepoint: 8853 ns,"
                        + " Total: 10164485 ns",
                ""), StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);

        GcLog.Pauses pauses = log.pausesSince(mark);

        assertEquals(2, pauses.count());
        assertEquals(7.679, pauses.longestMillis(), 1e-9);
        assertEquals(13.722, pauses.totalMillis(), 1e-9);
        assertEquals(12.8, pauses.evacuatingMillis(), 1e-9);
        assertEquals(10.108402, pauses.longestToSafepointMillis(), 1e-9);
        assertEquals("2, longest 8 ms, 14 ms in all, 13 ms evacuating; safepoint reached within 10.1 ms",
                pauses.toString());
    }
}
