package dev.svc.chat.bench.server;

import dev.svc.chat.bench.server.LatencyStages.Matched;
import dev.svc.chat.bench.server.LatencyStages.Run;
import dev.svc.chat.bench.server.LatencyStages.Split;
import dev.svc.chat.bench.support.Report;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * The per-stage table of {@link LatencyLayoutsBenchmark}: for each measured run (round, rate, layout, stack) the
 * messages matched, each stage's p50 and p99, and for the run's slowest 1 % (a total at or above its p99) each
 * stage's median and how many of them had it as their largest stage.
 */
final class LatencyStagesTable {
    private static final List<ToLongFunction<Split>> STAGES = List.of(Split::sender, Split::server,
            Split::receiver);

    private LatencyStagesTable() {
    }

    /**
     * A run's figures (ms): the messages matched and traced, each stage's p50 and p99, the slowest 1 %'s count,
     * each stage's median among them and how many of them had each stage as their largest (sender, server,
     * receiver; a tie goes to the earlier stage).
     */
    record Figures(Run run, int matched, int traced, double[] p50, double[] p99, int slowest,
                   double[] slowestMedian, int[] largest) {
    }

    static Figures figures(Matched m) {
        List<Split> splits = m.splits();
        double[] p50 = new double[3];
        double[] p99 = new double[3];
        for (int i = 0; i < 3; i++) {
            double[] ms = millis(splits, STAGES.get(i));
            p50[i] = Report.percentile(ms, 50);
            p99[i] = Report.percentile(ms, 99);
        }
        double cut = Report.percentile(millis(splits, Split::total), 99);
        List<Split> slowest = splits.stream().filter(s -> s.total() / 1e6 >= cut).toList();
        double[] slowestMedian = new double[3];
        int[] largest = new int[3];
        for (int i = 0; i < 3; i++) {
            slowestMedian[i] = Report.median(millis(slowest, STAGES.get(i)));
        }
        for (Split s : slowest) {
            int top = 0;
            for (int i = 1; i < 3; i++) {
                if (STAGES.get(i).applyAsLong(s) > STAGES.get(top).applyAsLong(s)) {
                    top = i;
                }
            }
            largest[top]++;
        }
        return new Figures(m.run(), splits.size(), m.traced(), p50, p99, slowest.size(), slowestMedian, largest);
    }

    private static double[] millis(List<Split> splits, ToLongFunction<Split> stage) {
        return splits.stream().mapToDouble(s -> stage.applyAsLong(s) / 1e6).toArray();
    }

    /** The table's cells for one run, in {@link #HEADERS}' order. */
    static Object[] cells(Figures f) {
        Run r = f.run();
        return new Object[] {r.round(), Report.num(r.rate(), 0), LatencyDevices.describe(r.twoProcesses()),
                r.ours() ? "ours" : "Node", Report.num(f.matched(), 0) + " / " + Report.num(f.traced(), 0),
                ms(f.p50()[0]) + " / " + ms(f.p99()[0]), ms(f.p50()[1]) + " / " + ms(f.p99()[1]),
                ms(f.p50()[2]) + " / " + ms(f.p99()[2]), Report.num(f.slowest(), 0),
                ms(f.slowestMedian()[0]) + " / " + ms(f.slowestMedian()[1]) + " / " + ms(f.slowestMedian()[2]),
                f.largest()[0] + " / " + f.largest()[1] + " / " + f.largest()[2]};
    }

    static final String[] HEADERS = {"round", "msg/s", "layout", "stack", "matched / traced",
        "sender p50 / p99", "server p50 / p99", "receiver p50 / p99", "slowest 1 %",
        "their median sender / server / receiver", "their largest stage: sender / server / receiver"};

    /** The section's part on the stages: how they were measured (or why not), and the runs (none when not). */
    record Section(String paragraph, List<Matched> runs) {
    }

    /**
     * Adds the paragraph and the table of the runs, by round, rate, layout (two processes first) and stack (ours
     * first); only the paragraph when there are none.
     */
    static void add(Report report, Section section) {
        report.paragraph(section.paragraph());
        if (section.runs().isEmpty()) {
            return;
        }
        Report.Table table = report.table(HEADERS);
        section.runs().stream().map(LatencyStagesTable::figures)
                .sorted(Comparator.comparingInt((Figures f) -> f.run().round())
                        .thenComparingInt(f -> f.run().rate())
                        .thenComparing(f -> !f.run().twoProcesses())
                        .thenComparing(f -> !f.run().ours()))
                .forEach(f -> table.row(cells(f)));
        table.end();
    }

    /** A stage in ms: three decimals under 1 ms (Node's sender stage is some 15 µs), fewer above. */
    static String ms(double ms) {
        if (Double.isNaN(ms)) {
            return "-";
        }
        return String.format(Locale.ROOT, ms < 1 ? "%.3f" : ms < 10 ? "%.2f" : "%,.1f", ms);
    }
}
