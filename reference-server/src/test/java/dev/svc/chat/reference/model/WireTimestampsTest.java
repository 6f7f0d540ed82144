package dev.svc.chat.reference.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WireTimestampsTest {
    private static final long FIRST = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long LAST = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    @Test
    void writesWhatTheFormatterWritesForEveryYearItSpells() {
        SplittableRandom random = new SplittableRandom(35);
        String[] edges = {"0000-01-01T00:00:00Z", "0000-02-29T12:00:00.999999999Z", "1969-12-31T23:59:59.999Z",
            "1970-01-01T00:00:00Z", "2000-02-29T23:59:59.5Z", "2100-03-01T00:00:00.001Z", "2026-11-29T21:12:00.1234Z",
            "9999-12-31T23:59:59.999999999Z"};
        for (String edge : edges) {
            check(Instant.parse(edge));
        }
        for (int i = 0; i < 100_000; i++) {
            check(Instant.ofEpochSecond(random.nextLong(FIRST, LAST + 1), random.nextInt(1_000_000_000)));
        }
    }

    @Test
    void leavesOtherYearsToTheFormatter() {
        assertFalse(WireTimestamps.write(Instant.ofEpochSecond(FIRST - 1), new char[WireTimestamps.LENGTH]));
        assertFalse(WireTimestamps.write(Instant.ofEpochSecond(LAST + 1), new char[WireTimestamps.LENGTH]));
    }

    private static void check(Instant instant) {
        char[] text = new char[WireTimestamps.LENGTH];
        assertTrue(WireTimestamps.write(instant, text), instant.toString());
        assertEquals(Json.TIMESTAMP.format(instant), new String(text), instant.toString());
    }
}
