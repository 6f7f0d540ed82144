package dev.svc.chat.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The run-queue wait a round prints: per message, in the counts' order, unknown where /proc has no process. */
class RunQueueWaitTest {

    @Test
    void perMessageFollowsTheCountsOrderSenderServerReceiver() {
        long[] senderReceiverServerNanos = {4_000_000, 1_000_000, 2_000_000};
        assertEquals("waiting for a CPU µs 40 / 20 / 10",
                RunQueueWait.perMessage(senderReceiverServerNanos, 100, true));
        assertEquals("waiting for a CPU µs 40 (pair) / 20 (server)",
                RunQueueWait.perMessage(senderReceiverServerNanos, 100, false));
        assertEquals("waiting for a CPU µs - / 20 / 10",
                RunQueueWait.perMessage(new long[] {-1, 1_000_000, 2_000_000}, 100, true));
    }

    @Test
    void aProcessThatCannotBeReadIsUnknownAndALiveOneIsCounted() {
        long self = ProcessHandle.current().pid();
        long gone = Long.MAX_VALUE;
        RunQueueWait before = RunQueueWait.of(new long[] {self, gone});
        long[] waited = RunQueueWait.of(new long[] {self, gone}).since(before);
        assertTrue(waited[0] >= 0, "this JVM's threads' wait, ns: " + waited[0]);
        assertEquals(-1, waited[1]);
    }
}
