package dev.svc.chat.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The allocation counts of another JVM: per message in KB, and none (not an error) where it cannot attach. */
class JvmAllocationTest {
    @Test
    void bytesPerMessageAreKilobytesOfAThousandBytes() {
        assertEquals("1.5 KB", JvmAllocation.perMessage(3_000, 2));
        assertEquals("21.0 KB", JvmAllocation.perMessage(630_000, 30));
        assertEquals("-", JvmAllocation.perMessage(-1, 30));
        assertEquals("-", JvmAllocation.perMessage(3_000, 0));
    }

    @Test
    void aProcessThatCannotBeAttachedCountsMinusOne() {
        try (JvmAllocation none = JvmAllocation.attach(Long.MAX_VALUE)) {
            assertEquals(-1, none.total());
            assertTrue(none.byThread().isEmpty());
        }
    }
}
