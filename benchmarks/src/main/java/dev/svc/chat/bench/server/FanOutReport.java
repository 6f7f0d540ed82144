package dev.svc.chat.bench.server;

import dev.svc.chat.bench.server.FanOutBenchmark.Rows;
import dev.svc.chat.bench.support.Report;
import dev.svc.chat.bench.support.ResultRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * Writes the fan-out benchmark's section of docs/benchmarks.md from its rounds: every figure is the median of a
 * room size's rounds with their spread (lowest to highest), and the summary's rows carry every round, so that a
 * target is held met only if its worst round meets it. A row with a run whose load side was the limit is refused.
 */
final class FanOutReport {
    private final Map<Integer, Rows> rows;
    private final double[] factors;
    private final LoadSide.Shape shape;
    private final int apiKeyFrom;
    private final long[] peakMiB;
    private final int rounds;
    private final double settleCap;

    FanOutReport(Map<Integer, Rows> rows, double[] factors, LoadSide.Shape shape, int apiKeyFrom, long[] peakMiB,
                 int rounds, double settleCap) {
        this.settleCap = settleCap;
        this.rows = rows;
        this.factors = factors.clone();
        this.shape = shape;
        this.apiKeyFrom = apiKeyFrom;
        this.peakMiB = peakMiB.clone();
        this.rounds = rounds;
    }

    Report report(String loadBefore, String loadAfter, double minutes) {
        Report report = new Report("Reference server: fan-out to one room");
        report.paragraph(method(loadBefore, loadAfter, minutes));
        Report.Table table = report.table("members", "messages a run", "ours deliveries/s", "ours p99",
                "Node deliveries/s", "Node p99", "ratio deliveries/s (ours / Node)", "ratio p99 (ours / Node)",
                "server's µs CPU a delivery (ours / Node)", "ratio µs a delivery (ours / Node; worst round)",
                "ours' JIT share (median, highest)", "senders' CPU (ours / Node)", "members' CPU (ours / Node)",
                "busiest load process", "valid");
        for (Map.Entry<Integer, Rows> e : rows.entrySet()) {
            int size = e.getKey();
            Rows r = e.getValue();
            List<FanOutRun> o = r.ours();
            List<FanOutRun> n = r.node();
            List<FanOutRun> unpaced = Stream.concat(o.stream(), n.stream()).toList();
            String invalid = invalid(unpaced);
            table.row(Report.num(size, 0) + (size >= apiKeyFrom ? " *" : ""), Report.num(o.get(0).messages(), 0),
                    spread(o, FanOutRun::perSecond, 0) + missing(o), spread(o, FanOutRun::p99, 1),
                    spread(n, FanOutRun::perSecond, 0) + missing(n), spread(n, FanOutRun::p99, 1),
                    Report.ratio(med(o, FanOutRun::perSecond), med(n, FanOutRun::perSecond)),
                    Report.ratio(med(o, FanOutRun::p99), med(n, FanOutRun::p99)),
                    Report.num(med(o, FanOutRun::serverMicros), 1) + " / "
                            + Report.num(med(n, FanOutRun::serverMicros), 1),
                    Report.ratio(med(o, FanOutRun::serverMicros), med(n, FanOutRun::serverMicros)) + "; "
                            + worstRatio(o, n, FanOutRun::serverMicros),
                    pct(med(o, FanOutRun::jitShare)) + ", " + pct(max(o, FanOutRun::jitShare)),
                    Report.num(med(o, FanOutRun::sendersCpu), 2) + " / " + Report.num(med(n, FanOutRun::sendersCpu), 2),
                    Report.num(med(o, FanOutRun::membersCpu), 2) + " / " + Report.num(med(n, FanOutRun::membersCpu), 2),
                    Report.num(max(unpaced, FanOutRun::busiestLoad), 2), invalid.isEmpty() ? "yes" : "no");
            report.result(row("fanout.deliveries@" + size, o, n, FanOutRun::perSecond, "deliveries/s", invalid))
                    .result(row("fanout.p99.unpaced@" + size, o, n, FanOutRun::p99, "ms", invalid))
                    .result(row("fanout.cpuPerDelivery@" + size, o, n, FanOutRun::serverMicros, "µs", invalid));
        }
        table.end();
        paced(report);
        warmups(report);
        threads(report);
        byKind(report);
        report.paragraph(twoCores());
        report.paragraph(FanOutProse.DEVELOPMENT);
        report.paragraph(FanOutProse.UNPACED);
        report.paragraph(FanOutProse.RUN_LENGTH);
        report.paragraph("Why API-key members in rooms of " + Report.num(apiKeyFrom, 0) + " (*): "
                + FanOutProse.API_KEY_MEMBERS);
        report.paragraph(FanOutProse.SERVER_CPU);
        return report;
    }

    private String method(String loadBefore, String loadAfter, double minutes) {
        return "Senders over REST to one room; the same load side for both servers, on the same 2 cores as the server"
                + " under test: " + shape.senders() + " sender processes (node/fanout-sender.js: plain keep-alive"
                + " sockets, one request at a time each, " + shape.inFlight() + " in flight over them) and the"
                + " members spread over " + shape.memberProcesses()
                + " Node processes (node/fanout-load-members.js: raw WebSocket connections that speak just enough"
                + " Engine.IO and Socket.IO to connect and join, and count a `new-message` by comparing its first bytes"
                + " and reading the send time's digits, without parsing the frame). Ours: the reference server in a"
                + " child JVM (permessage-deflate off, the default), REST `sendMessage`, `new-message` to each member's"
                + " connection. Peer: the official Node socket.io 4.8.4 server, a POST handler calling"
                + " `io.to(room).emit` with a body shaped like our Message. Deliveries a second: all arrivals, from the"
                + " first send to the last arrival. Latency: from just before a request is written (the sender's"
                + " CLOCK_MONOTONIC in the body) to its arrival at a member, ms, from histograms of 1 % buckets merged"
                + " over the members' processes. Both servers' rooms of a size are open at once; each row is the median"
                + " of " + rounds + " rounds with the lowest and highest in brackets, a round being Node and ours as"
                + " fast as the requests in flight allow (who goes first alternates), then ours offered "
                + factorList() + " times that round's Node deliveries a second. Warm-up: every room at least 100,000"
                + " deliveries (a server's first room 200,000, both servers alike), then ours in runs of the room's"
                + " messages until its JIT compilers (the C1 and C2 threads' CPU, /proc/PID/task) used under 5 % of its"
                + " CPU over the last run, at most " + Report.num(settleCap, 0) + " s a room (the table of warm-ups"
                + " says when it was capped). CPU"
                + " columns: each process's CPU time over the run (/proc; 1.0 is one core); senders' and members' are"
                + " summed over their processes. A run in which one load-side process used more than "
                + Report.num(shape.maxLoadCore(), 1) + " of a core is"
                + " invalid (the load side may have been the limit), and so is its row: the summary shows such a"
                + " target as \"invalid run\". Load average (1 / 5 min) " + loadBefore + " before, " + loadAfter
                + " after; the benchmark took " + Report.num(minutes, 1) + " min. On ours, rooms of "
                + Report.num(apiKeyFrom, 0) + " or more (marked *) have API-key members (see below).";
    }

    private String factorList() {
        List<String> f = new ArrayList<>();
        for (double x : factors) {
            f.add(Report.num(x, 2));
        }
        return String.join(", ", f);
    }

    /** The paced runs, and the highest offered load whose p99 met Node's in every round. */
    private void paced(Report report) {
        report.paragraph("Ours offered a multiple of the same round's Node deliveries a second (messages a second ="
                + " that / members, over the senders; the same requests in flight): \"met\" counts the rounds whose"
                + " p99 was at most that round's Node p99.");
        Report.Table at = report.table("members", "offered (× Node's deliveries/s)", "ours deliveries/s", "ours p99",
                "Node p99", "rounds met", "server's µs CPU a delivery", "ours' JIT share", "busiest load process");
        Report.Table best = report.table("members", "highest offered load met in every round",
                "its ratio deliveries/s (ours / Node), median", "deliveries/s at Node's p99 (ours / Node), worst round");
        for (Map.Entry<Integer, Rows> e : rows.entrySet()) {
            Rows r = e.getValue();
            List<FanOutRun> n = r.node();
            String bestFactor = "none of " + factorList();
            String bestRatio = "-";
            for (int i = 0; i < factors.length; i++) {
                int f = i;
                List<FanOutRun> p = r.paced().stream().map(a -> a[f]).toList();
                int met = 0;
                for (int k = 0; k < p.size(); k++) {
                    met += p.get(k).p99() <= n.get(k).p99() ? 1 : 0;
                }
                at.row(Report.num(e.getKey(), 0), Report.num(factors[i], 2), spread(p, FanOutRun::perSecond, 0)
                                + missing(p), spread(p, FanOutRun::p99, 1), Report.num(med(n, FanOutRun::p99), 1),
                        met + " of " + p.size(), Report.num(med(p, FanOutRun::serverMicros), 1),
                        pct(med(p, FanOutRun::jitShare)), Report.num(max(p, FanOutRun::busiestLoad), 2)
                                + (invalid(p).isEmpty() ? "" : " (invalid)"));
                if (met == p.size()) {
                    bestFactor = Report.num(factors[i], 2) + "×";
                    bestRatio = Report.ratio(med(p, FanOutRun::perSecond), med(n, FanOutRun::perSecond));
                }
            }
            List<ResultRows.Round> atP99 = atNodeP99(r);
            double worst = atP99.stream().mapToDouble(x -> x.ours() / x.peer()).min().orElse(Double.NaN);
            best.row(Report.num(e.getKey(), 0), bestFactor, bestRatio, Double.isFinite(worst)
                    ? String.format(java.util.Locale.ROOT, "%.2f×", worst) : "-");
            List<FanOutRun> all = new ArrayList<>(n);
            r.paced().forEach(a -> all.addAll(Arrays.asList(a)));
            report.result(new ResultRows.Row("fanout.atNodeP99@" + e.getKey(),
                    Report.median(atP99.stream().mapToDouble(ResultRows.Round::ours).toArray()),
                    med(n, FanOutRun::perSecond), "deliveries/s", atP99, invalid(all)));
        }
        at.end();
        report.paragraph("The highest offered load at which ours' p99 was at most Node's in every round, and the"
                + " deliveries a second at Node's p99 in the worst round (the round's highest offered load that met"
                + " its Node p99, 0 if none did, over that round's Node deliveries a second; the summary's figure):");
        best.end();
    }

    /** Per round: ours' deliveries a second at the highest offered load whose p99 met that round's Node's, or 0. */
    List<ResultRows.Round> atNodeP99(Rows r) {
        List<ResultRows.Round> out = new ArrayList<>();
        for (int k = 0; k < r.node().size(); k++) {
            FanOutRun n = r.node().get(k);
            double rate = 0;
            for (FanOutRun p : r.paced().get(k)) {
                if (p.p99() <= n.p99()) {
                    rate = Math.max(rate, p.perSecond());
                }
            }
            out.add(new ResultRows.Round(rate, n.perSecond()));
        }
        return out;
    }

    private void warmups(Report report) {
        report.paragraph("Warm-ups: messages and seconds, and the JIT compilers' share of our server's CPU over the"
                + " last run of its warm-up (under 5 % settled it; \"capped\" means " + Report.num(settleCap, 0)
                + " s did not).");
        Report.Table t = report.table("members", "Node's warm-up messages", "ours' warm-up messages", "ours' seconds",
                "ours' JIT share in its last run", "settled", "connect all (ours / Node, s)");
        for (Map.Entry<Integer, Rows> e : rows.entrySet()) {
            Rows r = e.getValue();
            t.row(Report.num(e.getKey(), 0), Report.num(r.nodeWarmup().messages(), 0),
                    Report.num(r.oursWarmup().messages(), 0), Report.num(r.oursWarmup().seconds(), 1),
                    pct(r.oursWarmup().lastJitShare()), r.oursWarmup().capped() ? "capped" : "yes",
                    Report.num(r.connectSeconds()[0], 1) + " / " + Report.num(r.connectSeconds()[1], 1));
        }
        t.end();
    }

    /** Our server's CPU by thread over the unpaced runs: where a delivery's CPU goes. */
    private void threads(Report report) {
        report.paragraph("Our server's CPU by thread over the unpaced runs (each thread name with its digits dropped,"
                + " so a pool counts once; share of the server's CPU, medians of the rounds, the largest five): the"
                + " CPU split behind the column \"server's µs CPU a delivery\".");
        Report.Table t = report.table("members", "threads (share of the server's CPU)");
        for (Map.Entry<Integer, Rows> e : rows.entrySet()) {
            List<FanOutRun> o = e.getValue().ours();
            Map<String, Double> share = new TreeMap<>();
            o.stream().flatMap(run -> run.serverThreads().keySet().stream()).distinct().forEach(name ->
                    share.put(name, med(o, run -> run.serverCpu() > 0
                            ? run.serverThreads().getOrDefault(name, 0.0) / run.serverCpu() : 0)));
            List<String> top = share.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .limit(5).map(x -> "`" + x.getKey() + "` " + pct(x.getValue())).toList();
            t.row(Report.num(e.getKey(), 0), String.join(", ", top));
        }
        t.end();
    }

    private void byKind(Report report) {
        if (rows.values().stream().allMatch(r -> r.byKind() == null)) {
            return;
        }
        report.paragraph("Ours, a room of token members (the median round above) and one unpaced run of a room of"
                + " API-key members that joined it, in the same server: each kind of member costs one set insertion"
                + " and one enqueue a message (`FanOut` encodes the event once).");
        Report.Table t = report.table("members", "token members deliveries/s", "p99", "server's µs a delivery",
                "API-key members deliveries/s", "p99", "server's µs a delivery", "ratio µs a delivery (API-key / token)");
        for (Map.Entry<Integer, Rows> e : rows.entrySet()) {
            FanOutRun[] k = e.getValue().byKind();
            if (k != null) {
                t.row(Report.num(e.getKey(), 0), Report.num(k[0].perSecond(), 0), Report.num(k[0].p99(), 1),
                        Report.num(k[0].serverMicros(), 2), Report.num(k[1].perSecond(), 0), Report.num(k[1].p99(), 1),
                        Report.num(k[1].serverMicros(), 2), Report.ratio(k[1].serverMicros(), k[0].serverMicros()));
            }
        }
        t.end();
    }

    private String twoCores() {
        return "What 2 cores allow: the server under test, both senders and the members' processes share them (and"
                + " so does other work on a shared machine), so a faster server leaves less CPU to the load side and"
                + " the reverse. The load side is built to cost as little as it can a delivery (no socket.io-client,"
                + " no parse of a frame) and spread over processes so that none of them is the one that saturates: the"
                + " busiest load process column says how close one came, and a row is refused above "
                + Report.num(shape.maxLoadCore(), 1) + " of a core."
                + " The server's peak resident memory over all its rooms: " + peakMiB[0] + " MiB ours (a JVM with the"
                + " default heap), " + peakMiB[1] + " MiB Node's.";
    }

    /** Why runs are invalid: the busiest load-side process above its bound; "" when every run is valid. */
    static String invalid(List<FanOutRun> runs) {
        double busiest = max(runs, FanOutRun::busiestLoad);
        return runs.stream().allMatch(FanOutRun::valid) ? ""
                : "a load-side process used " + Report.num(busiest, 2) + " of a core (over "
                + Report.num(runs.get(0).loadBound(), 2) + ")";
    }

    static ResultRows.Row row(String measure, List<FanOutRun> ours, List<FanOutRun> node,
                              ToDoubleFunction<FanOutRun> value, String unit, String invalid) {
        List<ResultRows.Round> rounds = new ArrayList<>();
        for (int k = 0; k < Math.min(ours.size(), node.size()); k++) {
            rounds.add(new ResultRows.Round(value.applyAsDouble(ours.get(k)), value.applyAsDouble(node.get(k))));
        }
        return new ResultRows.Row(measure, med(ours, value), med(node, value), unit, rounds, invalid);
    }

    private static String worstRatio(List<FanOutRun> ours, List<FanOutRun> node, ToDoubleFunction<FanOutRun> value) {
        double worst = Double.NaN;
        for (int k = 0; k < Math.min(ours.size(), node.size()); k++) {
            double ratio = value.applyAsDouble(ours.get(k)) / value.applyAsDouble(node.get(k));
            worst = Double.isNaN(worst) ? ratio : Math.max(worst, ratio);
        }
        return Double.isFinite(worst) ? String.format(java.util.Locale.ROOT, "%.2f×", worst) : "-";
    }

    static double med(List<FanOutRun> runs, ToDoubleFunction<FanOutRun> value) {
        return Report.median(runs.stream().mapToDouble(value).toArray());
    }

    static double max(List<FanOutRun> runs, ToDoubleFunction<FanOutRun> value) {
        return runs.stream().mapToDouble(value).max().orElse(Double.NaN);
    }

    /** The median with the lowest and highest round: "106,015 (97,557 – 112,004)". */
    static String spread(List<FanOutRun> runs, ToDoubleFunction<FanOutRun> value, int decimals) {
        double[] v = runs.stream().mapToDouble(value).toArray();
        if (v.length == 1) {
            return Report.num(v[0], decimals);
        }
        return Report.num(Report.median(v), decimals) + " (" + Report.num(Arrays.stream(v).min().orElse(0), decimals)
                + " – " + Report.num(Arrays.stream(v).max().orElse(0), decimals) + ")";
    }

    private static String missing(List<FanOutRun> runs) {
        long missing = runs.stream().mapToLong(FanOutRun::missing).sum();
        int failed = runs.stream().mapToInt(FanOutRun::failed).sum();
        return (missing > 0 ? " (" + Report.num(missing, 0) + " missing)" : "")
                + (failed > 0 ? " (" + failed + " sends failed)" : "");
    }

    private static String pct(double share) {
        return Double.isNaN(share) ? "-" : Report.num(100 * share, 0) + " %";
    }
}
