package dev.svc.chat.bench.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.bench.server.LatencyStages.Matched;
import dev.svc.chat.bench.server.LatencyStages.Run;
import dev.svc.chat.bench.server.LatencyStages.Split;
import dev.svc.chat.bench.support.Report;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-stage rows: each stage's p50 / p99, and what the slowest 1 % of a run were made of. */
class LatencyStagesTableTest {
    private static Run run(int round, boolean ours) {
        return new Run(round, 1000, true, ours, "r" + round, Path.of("trace"), 8080);
    }

    /** 197 messages of 0.1 / 0.15 / 0.13 ms, two slow in the server (4 and 5 ms), one in the receiver (8 ms). */
    private static Matched matched(Run run) {
        List<Split> splits = new ArrayList<>();
        for (int i = 0; i < 197; i++) {
            splits.add(new Split(100_000, 150_000, 130_000));
        }
        splits.add(1, new Split(100_000, 4_000_000, 130_000));
        splits.add(50, new Split(100_000, 150_000, 8_000_000));
        splits.add(new Split(100_000, 5_000_000, 130_000));
        return new Matched(run, 205, splits);
    }

    @Test
    void aRowGivesEachStageAndWhatTheSlowestOnePercentWereMadeOf() {
        Object[] cells = LatencyStagesTable.cells(LatencyStagesTable.figures(matched(run(1, true))));
        assertArrayEquals(new Object[] {1, "1,000", "two processes", "ours", "200 / 205", "0.100 / 0.100",
                "0.150 / 0.150", "0.130 / 0.130", "3", "0.100 / 4.00 / 0.130", "0 / 2 / 1"}, cells);
        assertEquals(LatencyStagesTable.HEADERS.length, cells.length);
    }

    @Test
    void aRunWithNothingMatchedHasNoFigures() {
        Object[] cells = LatencyStagesTable.cells(LatencyStagesTable.figures(new Matched(run(1, false), 10,
                List.of())));
        assertArrayEquals(new Object[] {1, "1,000", "two processes", "Node", "0 / 10", "- / -", "- / -", "- / -",
                "0", "- / - / -", "0 / 0 / 0"}, cells);
    }

    @Test
    void theTableRunsByRoundThenOursBeforeNode() {
        Report report = new Report("t");
        LatencyStagesTable.add(report, new LatencyStagesTable.Section("How.", List.of(matched(run(2, false)),
                matched(run(2, true)), matched(run(1, false)), matched(run(1, true)))));
        String text = report.markdown();
        int[] at = {text.indexOf("| 1 | 1,000 | two processes | ours"),
            text.indexOf("| 1 | 1,000 | two processes | Node"), text.indexOf("| 2 | 1,000 | two processes | ours"),
            text.indexOf("| 2 | 1,000 | two processes | Node")};
        assertTrue(text.indexOf("How.") < at[0] && at[0] < at[1] && at[1] < at[2] && at[2] < at[3], text);
    }

    @Test
    void withoutStagesOnlyTheReasonIsSaid() {
        Report report = new Report("t");
        LatencyStagesTable.add(report, new LatencyStagesTable.Section("Per stage: not measured, no tcpdump.",
                List.of()));
        assertTrue(report.markdown().contains("not measured, no tcpdump."));
        assertFalse(report.markdown().contains("| round |"));
    }
}
