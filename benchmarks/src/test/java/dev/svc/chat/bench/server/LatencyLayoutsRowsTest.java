package dev.svc.chat.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.bench.server.LatencyDevices.Measured;
import dev.svc.chat.bench.server.LatencyLayoutsBenchmark.Round;
import dev.svc.chat.bench.support.ResultRows;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The layouts' rows: every round goes to the summary beside the medians, and the table prints the spread. */
class LatencyLayoutsRowsTest {
    private static Round round(int n, double oursP99, double nodeP99) {
        return new Round(1000, true, n, new Measured(6000, 6000, 0.3, oursP99, oursP99 * 2),
                new Measured(6000, 6000, 0.25, nodeP99, nodeP99 * 2), "-", "-", "0.5 / 0.5", "", "", List.of());
    }

    @Test
    void aRowCarriesEveryRoundInOrderAndTheMedians() {
        List<Round> rounds = List.of(round(1, 0.9, 0.5), round(2, 3.0, 0.6), round(3, 0.7, 0.55),
                round(4, 0.8, 0.52), round(5, 0.75, 0.58));
        ResultRows.Row row = LatencyLayoutsBenchmark.row("latency.twoProcesses.p99@1000", rounds, Measured::p99);
        assertEquals(0.8, row.ours());
        assertEquals(0.55, row.peer());
        assertEquals(5, row.rounds().size());
        assertEquals(new ResultRows.Round(3.0, 0.6), row.rounds().get(1), "round 2, the worst, is kept");
    }

    @Test
    void theSpreadGivesTheMedianThenTheLowestAndHighestRound() {
        List<Round> rounds = List.of(round(1, 0.9, 0.5), round(2, 12.5, 0.6), round(3, 0.7, 0.55));
        String spread = LatencyLayoutsBenchmark.spread(rounds, r -> r.ours().p99());
        assertEquals("0.90 [0.70–12.5]", spread);
        assertTrue(LatencyLayoutsBenchmark.spread(rounds, r -> r.node().p99()).startsWith("0.55 ["));
    }
}
