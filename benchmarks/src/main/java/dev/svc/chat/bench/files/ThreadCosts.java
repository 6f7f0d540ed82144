package dev.svc.chat.bench.files;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import dev.svc.chat.bench.support.Report;

/**
 * The per-thread counts ({@link ThreadCost}) of each kind of transfer, summed over the counted rounds, and their
 * table: per transfer, each thread group's CPU, voluntary context switches and allocated bytes, averaged per round.
 */
final class ThreadCosts {
    static final String[] UPLOADS = {"SDK upload", "raw PUT", "raw tus PATCH"};
    static final String[] DOWNLOADS = {"SDK download", "raw GET"};
    /** Below this much CPU per round (and no MiB allocated), a group goes to the transfer's "other" row. */
    private static final double SMALL_MS = 5;
    private static final String ALL = "";

    final int rounds;
    /** Per transfer, per group, each counted round's counts. */
    private final Map<String, Map<String, List<ThreadCost.Counts>>> byTransfer = new LinkedHashMap<>();
    private int seen;

    ThreadCosts(int rounds) {
        this.rounds = rounds;
        for (String t : new String[] {"SDK download", "raw GET", "SDK upload", "raw tus PATCH", "raw PUT"}) {
            byTransfer.put(t, new LinkedHashMap<>());
        }
    }

    void add(String transfer, Map<String, ThreadCost.Counts> groups) {
        long total = 0;
        StringBuilder line = new StringBuilder(transfer + ":");
        for (Map.Entry<String, ThreadCost.Counts> e : groups.entrySet()) {
            total += e.getValue().cpuNanos;
            if (e.getValue().cpuNanos >= 1_000_000) {
                line.append(String.format(Locale.ROOT, " [%s %d ms, %d sw, %.1f MiB]", e.getKey(),
                        e.getValue().cpuNanos / 1_000_000, e.getValue().voluntary,
                        e.getValue().allocated / (double) FilesBench.MIB));
            }
        }
        System.out.println(line + " total " + total / 1_000_000 + " ms");
        // the first round of each transfer warms the counting's own code up (its JIT would count): not kept
        if (seen++ < UPLOADS.length + DOWNLOADS.length) return;
        Map<String, List<ThreadCost.Counts>> sums = byTransfer.get(transfer);
        ThreadCost.Counts all = new ThreadCost.Counts();
        for (Map.Entry<String, ThreadCost.Counts> e : groups.entrySet()) {
            sums.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
            all.add(e.getValue());
        }
        sums.computeIfAbsent(ALL, k -> new ArrayList<>()).add(all);
    }

    /** The table: a row per transfer and thread group, the median of the rounds' CPU, switches and allocations. */
    void table(Report report, int mib) {
        Report.Table table = report.table("transfer, " + mib + " MiB", "threads", "CPU (ms)", "voluntary switches",
                "allocated (MiB)");
        for (Map.Entry<String, Map<String, List<ThreadCost.Counts>>> t : byTransfer.entrySet()) {
            List<ThreadCost.Counts> small = new ArrayList<>();
            for (Map.Entry<String, List<ThreadCost.Counts>> g : t.getValue().entrySet()) {
                if (g.getKey().equals(ALL)) continue;
                List<ThreadCost.Counts> c = g.getValue();
                if (median(c, x -> x.cpuNanos / 1e6) < SMALL_MS && median(c, x -> x.allocated) < FilesBench.MIB) {
                    small.addAll(c);
                } else {
                    table.row(cells(t.getKey(), g.getKey(), c));
                }
            }
            if (!small.isEmpty()) {
                ThreadCost.Counts other = new ThreadCost.Counts();
                for (ThreadCost.Counts c : small) other.add(c);
                table.row(t.getKey(), "other threads (mean)", Report.num(other.cpuNanos / 1e6 / rounds, 0),
                        Report.num(other.voluntary / (double) rounds, 0),
                        Report.num(other.allocated / (double) FilesBench.MIB / rounds, 1));
            }
            List<ThreadCost.Counts> all = t.getValue().get(ALL);
            if (all != null) table.row(cells(t.getKey(), "**the JVM's**", all));
        }
        table.end();
    }

    private Object[] cells(String transfer, String group, List<ThreadCost.Counts> c) {
        return new Object[] {transfer, group, Report.num(median(c, x -> x.cpuNanos / 1e6), 0),
                Report.num(median(c, x -> x.voluntary), 0),
                Report.num(median(c, x -> x.allocated / (double) FilesBench.MIB), 1)};
    }

    /** The median over the rounds; a round where the group did not run counts as 0. */
    private double median(List<ThreadCost.Counts> c, ToDoubleFunction<ThreadCost.Counts> f) {
        double[] v = new double[rounds];
        for (int i = 0; i < c.size() && i < rounds; i++) v[i] = f.applyAsDouble(c.get(i));
        return Report.median(v);
    }
}
