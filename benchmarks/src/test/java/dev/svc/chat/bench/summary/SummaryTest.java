package dev.svc.chat.bench.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.bench.support.ResultRows;
import dev.svc.chat.bench.support.ResultRows.Round;
import dev.svc.chat.bench.support.ResultRows.Row;
import dev.svc.chat.bench.support.ResultRows.Sheet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary's table (figures, ratio, verdict) and its files, from made-up rows. */
class SummaryTest {
    private static String line(String markdown, String label) {
        return markdown.lines().filter(l -> l.startsWith("| " + label + " |")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + label + " in\n" + markdown));
    }

    private static String table(ResultRows rows) {
        Sheet sheet = new Sheet("test", "2026-11-25T14:00Z", rows.rows());
        return Summary.report(List.of(sheet), Summary.merge(List.of(sheet))).markdown();
    }

    @Test
    void aMeasureNoRunWroteIsNotMeasured() {
        String md = table(new ResultRows());
        assertEquals("| latency at 5,000 msg/s, p99 | not measured | - | - | - | ≤ 1.5× Node pair | not measured |",
                line(md, "latency at 5,000 msg/s, p99"));
        assertEquals(Target.ALL.size(), md.lines().filter(l -> l.endsWith("| not measured |")).count());
    }

    @Test
    void theRatioIsOursOverThePeersAndHeldAgainstTheBound() {
        ResultRows rows = new ResultRows();
        rows.add("latency.p99@5000", 43, 2.32, "ms");
        rows.add("latency.p999@5000", 6, 2, "ms");
        String md = table(rows);
        assertEquals("| latency at 5,000 msg/s, p99 | 43 ms | 2.32 (Node pair) | 18.53× | - | ≤ 1.5× Node pair | no |",
                line(md, "latency at 5,000 msg/s, p99"));
        assertEquals("| latency at 5,000 msg/s, p99.9 | 6 ms | 2 (Node pair) | 3.00× | - | ≤ 3× Node pair | yes |",
                line(md, "latency at 5,000 msg/s, p99.9"), "the bound itself is met");
    }

    @Test
    void aRatioTargetWithoutThePeersFigureIsNotMeasured() {
        Target t = target("latency.p99@5000");
        assertEquals(Target.Verdict.NOT_MEASURED, t.verdict(new Row(t.measure(), 3, Double.NaN, "ms")));
        assertEquals(Target.Verdict.NOT_MEASURED, t.verdict(new Row(t.measure(), 3, 0, "ms")));
        assertEquals(Target.Verdict.NOT_MEASURED, t.verdict(null));
    }

    @Test
    void eachKindOfBoundGivesItsVerdict() {
        Target atLeast = target("fanout.atNodeP99@10");
        assertEquals(Target.Verdict.MET, atLeast.verdict(new Row(atLeast.measure(), 20_334, 13_556, "deliveries/s")));
        assertEquals(Target.Verdict.NOT_MET, atLeast.verdict(new Row(atLeast.measure(), 0, 13_556, "deliveries/s")));
        Target cpu = target("ingest.cpuPerEvent");
        assertEquals(Target.Verdict.MET, cpu.verdict(new Row(cpu.measure(), 1.3, Double.NaN, "µs")),
                "an absolute bound needs no peer");
        assertEquals(Target.Verdict.NOT_MET, cpu.verdict(new Row(cpu.measure(), 2.66, 0.44, "µs")));
        Target threads = target("fleet.threads.jdk@10000");
        assertEquals(Target.Verdict.MET, threads.verdict(new Row(threads.measure(), 0.05, 1.09, "threads")));
        assertEquals(Target.Verdict.NOT_MET, threads.verdict(new Row(threads.measure(), 1.115, 1.09, "threads")));
    }

    @Test
    void aTargetInRoundsIsMetOnlyIfItsWorstRoundMeetsIt() {
        ResultRows rows = new ResultRows();
        // medians 4 / 2.5 = 1.6×, within 2×; round 3 is 5.5 / 2.5 = 2.2×
        rows.add(new Row("fanout.p99.unpaced@100", 4, 2.5, "ms",
                List.of(new Round(4, 2.5), new Round(3, 2.5), new Round(5.5, 2.5), new Round(4, 3), new Round(2, 2)),
                ""));
        rows.add(new Row("fanout.atNodeP99@100", 160, 100, "deliveries/s",
                List.of(new Round(160, 100), new Round(150, 100), new Round(155, 100)), ""));
        String md = table(rows);
        assertEquals("| fan-out, 100 members: p99, sender unpaced | 4 ms | 2.5 (Node server) | 1.60× | 2.20× of 5"
                + " | ≤ 2× Node server | no |", line(md, "fan-out, 100 members: p99, sender unpaced"));
        assertEquals("| fan-out, 100 members: deliveries/s at Node's p99 | 160 deliveries/s | 100 (Node server) | 1.60×"
                + " | 1.50× of 3 | ≥ 1.5× Node server | yes |",
                line(md, "fan-out, 100 members: deliveries/s at Node's p99"), "the worst round at the bound");
    }

    @Test
    void theLatencyBenchmarksRowsCarryTheirRoundsToo() {
        Target p99 = target("latency.p99@5000");
        Row row = new Row(p99.measure(), 3, 2, "ms", List.of(new Round(3, 2), new Round(5, 2), new Round(2, 2)), "");
        assertEquals(Target.Verdict.NOT_MET, p99.verdict(row), "round 2 is 2.5x");
        assertEquals(Target.Verdict.MET, p99.verdict(new Row(p99.measure(), 3, 2, "ms")), "one run: its ratio");
        assertEquals(Target.Verdict.NOT_MEASURED,
                p99.verdict(new Row(p99.measure(), 3, 2, "ms", List.of(new Round(3, Double.NaN)), "")));
    }

    @Test
    void anInvalidRowIsRefusedWhateverItsFigures() {
        ResultRows rows = new ResultRows();
        rows.add(new Row("fanout.cpuPerDelivery@1000", 3, 10, "µs", List.of(new Round(3, 10)),
                "a load-side process used 0.93 of a core (over 0.8)"));
        assertEquals("| fan-out, 1,000 members: server CPU per delivery | 3 µs | 10 (Node server) | 0.30× | 0.30× of 1"
                + " | ≤ 1× Node server | invalid run |", line(table(rows), "fan-out, 1,000 members: server CPU per delivery"));
    }

    @Test
    void roundsAndTheReasonSurviveTheirFile(@TempDir Path dir) throws Exception {
        ResultRows rows = new ResultRows();
        Row row = new Row("fanout.p99.unpaced@10", 4, 2.5, "ms", List.of(new Round(4, 2.5), new Round(Double.NaN, 3)),
                "a load-side process used 0.93 of a core (over 0.8)");
        rows.add(row);
        rows.add("ingest.rate", 1, 2, "events/s");
        rows.write(dir.resolve("r.tsv"));
        assertEquals(List.of(row, new Row("ingest.rate", 1, 2, "events/s")), ResultRows.read(dir.resolve("r.tsv")).rows());
    }

    @Test
    void figuresReadAsTheyShould() {
        assertEquals("13,556", Summary.figure(13_556.4));
        assertEquals("43", Summary.figure(43));
        assertEquals("2.32", Summary.figure(2.3217));
        assertEquals("0.1", Summary.figure(0.1));
        assertEquals("1.5", Summary.figure(1.5));
        assertEquals("12.5", Summary.figure(12.5));
    }

    @Test
    void aLaterSheetsRowOfTheSameMeasureWins() {
        Sheet old = new Sheet("a", "", List.of(new Row("ingest.rate", 1, 2, "events/s")));
        Sheet last = new Sheet("b", "", List.of(new Row("ingest.rate", 3, 4, "events/s")));
        assertEquals(3, Summary.merge(List.of(old, last)).get("ingest.rate").ours());
    }

    @Test
    void theMainReadsEveryKeptFileAndWritesTheSectionAndThePlots(@TempDir Path dir) throws Exception {
        Path kept = Files.createDirectories(dir.resolve("results"));
        ResultRows fleet = new ResultRows();
        fleet.add("fleet.threads.shared@1000", 1.115, 1.091, "threads");
        fleet.add("fleet.heap.shared@1000", 24.8, 23.4, "KiB");
        fleet.add("fleet.threads.raw@1000", 1.091, 1.091, "threads");
        fleet.add("fleet.heap.raw@1000", 23.4, 23.4, "KiB");
        fleet.write(kept.resolve("fleet.tsv"));
        ResultRows big = new ResultRows();
        big.add("fleet.threads.jdk@10000", 0.02, Double.NaN, "threads");
        big.add("fleet.heap.jdk@10000", 18, Double.NaN, "KiB");
        big.add("fleet.threads.shared@100", 1.5, Double.NaN, "threads");
        big.write(kept.resolve("fleet-10k.tsv"));
        Path out = dir.resolve("summary.md");

        Summary.main(new String[] {"--rows", kept.toString(), "--svg", dir.resolve("docs").toString(), "--out",
                out.toString()});

        String md = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(md.startsWith("## Summary\n"), md);
        assertEquals("| 10,000 clients, JDK transport: threads per client | 0.02 threads | - | - | - | ≤ 0.1 threads"
                + " | yes |",
                line(md, "10,000 clients, JDK transport: threads per client"));
        assertTrue(md.contains("`fleet` 20"), md);
        assertTrue(md.contains("(bench-fleet.svg)"), md);
        String svg = Files.readString(dir.resolve("docs").resolve(SummaryPlots.FLEET), StandardCharsets.UTF_8);
        assertTrue(svg.contains(">jdk</text>") && svg.contains(">raw</text>") && svg.contains(">shared</text>"), svg);
        assertTrue(svg.contains(">10,000 clients</text>") && svg.contains(">100 clients</text>"), svg);
        assertTrue(Files.exists(dir.resolve("docs").resolve(SummaryPlots.LATENCY)));
        assertTrue(Files.exists(dir.resolve("docs").resolve(SummaryPlots.FANOUT)));
    }

    @Test
    void rowsSurviveTheirFile(@TempDir Path dir) throws Exception {
        ResultRows rows = new ResultRows();
        rows.add("latency.p99@1000", 2.03, Double.NaN, "ms");
        rows.write(dir.resolve("x.tsv"));
        Sheet sheet = ResultRows.read(dir.resolve("x.tsv"));
        assertEquals("x", sheet.name());
        assertFalse(sheet.written().isEmpty());
        assertEquals(List.of(new Row("latency.p99@1000", 2.03, Double.NaN, "ms")), sheet.rows());
        assertEquals(Map.of(), Summary.merge(List.of()));
    }

    private static Target target(String measure) {
        return Target.ALL.stream().filter(t -> t.measure().equals(measure)).findFirst().orElseThrow();
    }
}
