package dev.svc.chat.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessCountersTest {

    @Test
    void aThreadThatEndedInTheWindowTakesNoWakeUpsFromTheOthers() {
        // task 11, an idle pool's thread, had woken 900 times before the window and ended in it; 12 woke 30 times
        // in the window and 13 started in it and woke 5 times
        ProcessCounters before = new ProcessCounters(100, 1_000, 50, Map.of("11", 900L, "12", 100L));
        ProcessCounters after = new ProcessCounters(160, 135, 80, Map.of("12", 130L, "13", 5L));

        ProcessCounters window = after.since(before);

        assertEquals(35, window.wakeUps(), "the wake-ups of the threads alive at the end, in the window");
        assertEquals(60, window.writes());
        assertEquals(30, window.cpuTicks());
    }

    @Test
    void withoutCountsTheWindowHasNone() {
        ProcessCounters none = new ProcessCounters(-1, -1, -1);
        assertEquals(-1, new ProcessCounters(1, 1, 1, Map.of("1", 1L)).since(none).wakeUps());
    }
}
