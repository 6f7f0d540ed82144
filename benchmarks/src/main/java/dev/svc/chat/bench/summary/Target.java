package dev.svc.chat.bench.summary;

import dev.svc.chat.bench.support.ResultRows;
import dev.svc.chat.bench.support.ResultRows.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One target of the performance issue (issue 21's table): the measure (a row key of the benchmarks' result
 * files), how it reads in the summary, its unit, the peer it is held against, and the bound, either on ours
 * divided by the peer's figure of the same run or on ours alone.
 */
record Target(String measure, String label, String unit, String peer, Kind kind, double bound) {
    /** What the bound applies to. */
    enum Kind {
        RATIO_AT_MOST, RATIO_AT_LEAST, AT_MOST, AT_LEAST
    }

    /** A target's state against the figures. */
    enum Verdict {
        MET("yes"), NOT_MET("no"), NOT_MEASURED("not measured"), INVALID("invalid run");

        final String text;

        Verdict(String text) {
            this.text = text;
        }
    }

    /** The issue's targets, in the order of its table. */
    static final List<Target> ALL = all();

    private static List<Target> all() {
        List<Target> all = new ArrayList<>();
        // issue 35, item 4: p99 at most 1.5 times the Node pair's in every round of both layouts
        all.add(new Target("latency.p99@5000", "latency at 5,000 msg/s, p99", "ms", "Node pair",
                Kind.RATIO_AT_MOST, 1.5));
        all.add(new Target("latency.p999@5000", "latency at 5,000 msg/s, p99.9", "ms", "Node pair",
                Kind.RATIO_AT_MOST, 3));
        all.add(new Target("latency.p99.worstRound@1000", "latency at 1,000 msg/s, the worst round's p99", "ms",
                "Node pair", Kind.RATIO_AT_MOST, 1.5));
        // Performance, round three: sender and receiver as two devices, each in a process of its own.
        for (int rate : new int[] {1000, 5000}) {
            all.add(new Target("latency.twoProcesses.p99@" + rate, String.format(Locale.ROOT,
                    "latency at %,d msg/s, two processes, p99", rate), "ms", "Node devices", Kind.RATIO_AT_MOST, 1.5));
        }
        for (int members : new int[] {10, 100, 1000}) {
            String room = String.format(Locale.ROOT, "fan-out, %,d members", members);
            all.add(new Target("fanout.atNodeP99@" + members, room + ": deliveries/s at Node's p99", "deliveries/s",
                    "Node server", Kind.RATIO_AT_LEAST, 1.5));
            all.add(new Target("fanout.cpuPerDelivery@" + members, room + ": server CPU per delivery",
                    "µs", "Node server", Kind.RATIO_AT_MOST, 1));
            all.add(new Target("fanout.p99.unpaced@" + members, room + ": p99, sender unpaced", "ms", "Node server",
                    Kind.RATIO_AT_MOST, 2));
        }
        all.add(new Target("ingest.cpuPerEvent", "ingest: CPU per typed event", "µs", "raw OkHttp frame counter",
                Kind.AT_MOST, 1.3));
        all.add(new Target("ingest.rate", "ingest: events/s", "events/s", "raw OkHttp frame counter",
                Kind.RATIO_AT_LEAST, 0.5));
        all.add(new Target("fleet.threads.jdk@10000", "10,000 clients, JDK transport: threads per client", "threads",
                "raw OkHttp", Kind.AT_MOST, 0.1));
        all.add(new Target("fleet.heap.jdk@10000", "10,000 clients, JDK transport: heap per client", "KiB",
                "raw OkHttp", Kind.AT_MOST, 20));
        all.add(new Target("badnet.senderCut.socket.p99", "send time, sender's network cut, socket: p99", "ms", "",
                Kind.AT_MOST, 2000));
        all.add(new Target("badnet.senderCut.rest.p99", "send time, sender's network cut, REST: p99", "ms", "",
                Kind.AT_MOST, 2000));
        all.add(new Target("badnet.memberCut.p99", "send time, another member's network cut: p99", "ms", "",
                Kind.AT_MOST, 50));
        all.add(new Target("badnet.dm.p99.worstRound", "send time, direct message, the other member's network cut:"
                + " the worst round's p99", "ms", "", Kind.AT_MOST, 50));
        // The console's figures: a "flat" heap read as at most 5 MB more after a forced collection at the end.
        all.add(new Target("console.row.p99", "console: send to its row in the page, p99", "ms", "",
                Kind.AT_MOST, 250));
        all.add(new Target("console.heap.growth", "console: page JS heap growth over the 90 s run", "MB", "",
                Kind.AT_MOST, 5));
        all.add(new Target("console.10min.heap.growth", "console: page JS heap growth over 10 minutes", "MB", "",
                Kind.AT_MOST, 5));
        // The files issue's figures ("Files and images"): one PATCH chunk is the SDK's 1 MiB.
        all.add(new Target("files.upload", "files: upload throughput", "MiB/s", "raw OkHttp PUT",
                Kind.RATIO_AT_LEAST, 0.8));
        all.add(new Target("files.download", "files: download throughput", "MiB/s", "raw OkHttp GET",
                Kind.RATIO_AT_LEAST, 0.8));
        all.add(new Target("files.heap.upload", "files: heap growth uploading 1 GiB", "MiB", "", Kind.AT_MOST, 16));
        all.add(new Target("files.heap.download", "files: heap growth downloading 1 GiB", "MiB", "", Kind.AT_MOST,
                16));
        all.add(new Target("files.resendPerCut", "files: bytes sent again per cut", "KiB", "", Kind.AT_MOST, 1024));
        return List.copyOf(all);
    }

    /** Ours divided by the peer's figure, NaN when either is missing. */
    static double ratio(Row row) {
        return row == null || Double.isNaN(row.ours()) || Double.isNaN(row.peer()) || row.peer() == 0
                ? Double.NaN : row.ours() / row.peer();
    }

    /**
     * The verdict on {@code row} (null when no run wrote the measure): on the worst of its rounds when it has
     * rounds (a target is met only if every round meets it), else on its figures; an invalid row is refused.
     */
    Verdict verdict(Row row) {
        if (row != null && !row.invalid().isEmpty()) {
            return Verdict.INVALID;
        }
        double value = worst(row);
        if (Double.isNaN(value)) {
            return Verdict.NOT_MEASURED;
        }
        boolean met = switch (kind) {
            case RATIO_AT_MOST, AT_MOST -> value <= bound;
            case RATIO_AT_LEAST, AT_LEAST -> value >= bound;
        };
        return met ? Verdict.MET : Verdict.NOT_MET;
    }

    /**
     * The figure held against the bound: the worst round's (the highest for an upper bound, the lowest for a
     * lower one; NaN when a round lacks a figure) when the row has rounds, else the row's; a ratio for a ratio
     * target, ours for an absolute one.
     */
    double worst(Row row) {
        if (row == null) {
            return Double.NaN;
        }
        if (row.rounds().isEmpty()) {
            return value(row.ours(), row.peer());
        }
        boolean upper = kind == Kind.RATIO_AT_MOST || kind == Kind.AT_MOST;
        double worst = upper ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        for (ResultRows.Round round : row.rounds()) {
            double v = value(round.ours(), round.peer());
            if (Double.isNaN(v)) {
                return Double.NaN;
            }
            worst = upper ? Math.max(worst, v) : Math.min(worst, v);
        }
        return worst;
    }

    private double value(double ours, double peer) {
        return switch (kind) {
            case RATIO_AT_MOST, RATIO_AT_LEAST -> Double.isNaN(ours) || Double.isNaN(peer) || peer == 0
                    ? Double.NaN : ours / peer;
            case AT_MOST, AT_LEAST -> ours;
        };
    }

    /** The target as the summary states it: "≤ 2× Node pair", "≤ 1.3 µs". */
    String describe() {
        String b = Summary.figure(bound);
        return switch (kind) {
            case RATIO_AT_MOST -> "≤ " + b + "× " + peer;
            case RATIO_AT_LEAST -> "≥ " + b + "× " + peer;
            case AT_MOST -> "≤ " + b + " " + unit;
            case AT_LEAST -> "≥ " + b + " " + unit;
        };
    }
}
