package dev.svc.chat.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.bench.server.FanOutBenchmark.Rows;
import dev.svc.chat.bench.server.FanOutBenchmark.Warmup;
import dev.svc.chat.bench.support.ResultRows;
import dev.svc.chat.bench.support.ResultRows.Round;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fan-out rows: a busy load side refuses the row, every round goes to the summary, latency histograms. */
class FanOutRowsTest {
    private static FanOutRun run(double perSecond, double p99, double busiestLoad) {
        return new FanOutRun(10, 100, 1000, perSecond, p99 / 2, p99, 0, 0.1, 0.2, busiestLoad, FanOutRun.MAX_LOAD_CORE,
                0.5, 0.01, Map.of());
    }

    @Test
    void aLoadProcessAboveEightTenthsOfACoreMakesTheRunInvalid() {
        assertTrue(run(1000, 5, 0.80).valid(), "the bound itself is allowed");
        assertFalse(run(1000, 5, 0.81).valid());
        assertEquals("", FanOutReport.invalid(List.of(run(1000, 5, 0.3), run(1000, 5, 0.79))));
        assertEquals("a load-side process used 0.93 of a core (over 0.80)",
                FanOutReport.invalid(List.of(run(1000, 5, 0.3), run(1000, 5, 0.93))));
    }

    @Test
    void aRowCarriesEveryRoundAndItsMedians() {
        List<FanOutRun> ours = List.of(run(3000, 9, 0.2), run(1000, 30, 0.2), run(2000, 6, 0.9));
        List<FanOutRun> node = List.of(run(1500, 5, 0.2), run(1400, 6, 0.2), run(1600, 4, 0.2));
        ResultRows.Row row = FanOutReport.row("fanout.p99.unpaced@10", ours, node, FanOutRun::p99, "ms",
                FanOutReport.invalid(ours));
        assertEquals(9, row.ours());
        assertEquals(5, row.peer());
        assertEquals(List.of(new Round(9, 5), new Round(30, 6), new Round(6, 4)), row.rounds());
        assertTrue(row.invalid().contains("0.90 of a core"), row.invalid());
    }

    @Test
    void deliveriesAtNodesP99AreEachRoundsHighestOfferedLoadThatMetThatRoundsP99() {
        List<FanOutRun> node = List.of(run(1000, 10, 0.2), run(1000, 4, 0.2));
        List<FanOutRun[]> paced = List.of(
                new FanOutRun[] {run(1000, 3, 0.2), run(1500, 9, 0.2)},
                new FanOutRun[] {run(1000, 3, 0.2), run(1500, 9, 0.2)});
        Warmup w = new Warmup(1, 1, 0.01, false);
        Rows rows = new Rows(node, node, paced, w, w, new double[] {1, 1}, null);
        Map<Integer, Rows> all = new LinkedHashMap<>();
        all.put(10, rows);
        FanOutReport report = new FanOutReport(all, new double[] {1, 1.5}, new LoadSide.Shape(4, 2, 8, FanOutRun.MAX_LOAD_CORE), 10000,
                new long[] {1, 1}, 2, 30);
        assertEquals(List.of(new Round(1500, 1000), new Round(1000, 1000)), report.atNodeP99(rows),
                "round 2's 1.5x missed its Node p99 of 4 ms: its figure is the 1.0x run's");
        String md = report.report("1 / 1", "1 / 1", 1).markdown();
        assertTrue(md.contains("| 10 | 1.00× | 1.00× | 1.00× |"), md);
    }

    @Test
    void histogramsMergeIntoPercentiles() {
        LatencyHistogram h = new LatencyHistogram();
        List<Double> micros = new ArrayList<>();
        for (int i = 1; i <= 1000; i++) {
            micros.add(i * 100.0); // 0.1 to 100 ms
        }
        for (double m : micros) {
            h.add(LatencyHistogram.bucketOf(m), 1);
        }
        assertEquals(50, h.percentileMillis(50), 0.5, "within a bucket, about 1 %");
        assertEquals(99, h.percentileMillis(99), 1);
        assertTrue(Double.isNaN(new LatencyHistogram().percentileMillis(99)));
    }
}
