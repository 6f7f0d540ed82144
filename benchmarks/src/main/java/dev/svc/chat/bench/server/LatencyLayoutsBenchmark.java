package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.GcLog;
import dev.svc.chat.bench.support.LoadAverage;
import dev.svc.chat.bench.support.ProcessCounters;
import dev.svc.chat.bench.support.Report;
import dev.svc.chat.bench.support.ResultRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Latency sender → server → receiver with the peers run as users run them: sender and receiver each in a
 * process of its own (two devices), and optionally both in one process (a bot fleet), both stacks alike. Ours:
 * {@link LatencyPeer} JVMs (the SDK's defaults) through the reference server (a child JVM); Node:
 * {@code node/latency-peer.js} (official socket.io-client) through the official socket.io server as the relay.
 * Every device process is warmed up first ({@code --warm-up-seconds}, default 10, split across the rates), as a
 * user measures after a warm-up, then by unmeasured passes until the JIT compilers of our JVMs have settled
 * ({@link JitShares}); then {@code --rounds} (default 5) rounds, each running every rate in every
 * layout for ours and for Node, taking turns, for {@code --seconds} (default 6). See {@link LatencyDevices}
 * for the clock.
 *
 * <p>Arguments: {@code --rates 1000,5000}, {@code --seconds 6}, {@code --rounds 5}, {@code --warm-up-seconds
 * 10}, {@code --layouts two|two,one}, {@code --peer-jvm-args "..."}, {@code --peer-args "..."} (our peers'
 * options, see {@link LatencyPeer}), {@code --server-args "..."},
 * {@code --server-jvm-args "..."}, {@code --jfr DIR} (the server's and our peers' recordings), {@code --per-thread
 * yes} (each round's wake-ups and bytes allocated a message by thread, on stderr; the wake-ups' medians are
 * always in the report, {@link LatencyThreadWakeUps}), {@code --stages yes|no} (each measured round's latency
 * split into sender, server and receiver from a tcpdump capture of loopback, see {@link StageCapture}; without
 * it, yes when tcpdump can capture here, else the section says why not), {@code --out}.
 */
public final class LatencyLayoutsBenchmark {

    /** One round of one rate in one layout: ours and Node's figures, the collectors' pauses, the load. */
    record Round(int rate, boolean twoProcesses, int round, LatencyDevices.Measured ours,
                 LatencyDevices.Measured node, String peerPauses, String serverPauses, String load,
                 String oursCounts, String nodeCounts, List<LatencyThreadWakeUps.Sample> oursThreads) {
    }

    /**
     * The most settling passes over the rates: more than the one-process benchmark's
     * {@link LatencyBenchmark#MAX_SETTLING_PASSES}, as three JVMs of ours settle here (sender, receiver, server), and
     * four passes left one of them at 9 to 32 % in development runs.
     */
    static final int MAX_SETTLING_PASSES = 8;

    /** {@code --per-thread yes}: each round of ours also prints its counts a message by thread (diagnosis). */
    private static boolean perThread;

    public static void main(String[] args) throws Exception {
        int[] rates = Arrays.stream(Report.option(args, "--rates", "1000,5000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        double seconds = Double.parseDouble(Report.option(args, "--seconds", "6"));
        int rounds = Integer.parseInt(Report.option(args, "--rounds", "5"));
        double warmUp = Double.parseDouble(Report.option(args, "--warm-up-seconds", "10"));
        List<Boolean> layouts = new ArrayList<>();
        for (String layout : Report.option(args, "--layouts", "two").split(",")) {
            layouts.add(layout.equals("two"));
        }
        String peerJvm = Report.option(args, "--peer-jvm-args", "").trim();
        List<String> peerJvmArgs = peerJvm.isEmpty() ? List.of() : List.of(peerJvm.split("\\s+"));
        String peerArg = Report.option(args, "--peer-args", "").trim();
        List<String> peerArgs = peerArg.isEmpty() ? List.of() : List.of(peerArg.split("\\s+"));
        String jfr = Report.option(args, "--jfr", null);
        perThread = Report.option(args, "--per-thread", "no").equals("yes");
        String loadBefore = LoadAverage.now();
        GcLog serverGc = new GcLog();
        List<Round> measured = new ArrayList<>();
        List<String> clocks = new ArrayList<>();
        List<Double> settling = new ArrayList<>();
        LatencyStagesTable.Section stagesSection;
        try (StageCapture stages = StageCapture.open(args);
             ServerUnderTest server = ServerUnderTest.ours(args, "latency-layouts-server.jfr",
                List.of(serverGc.jvmArgument()));
             ServerUnderTest nodeServer = ServerUnderTest.node()) {
            List<LatencyDevices[]> pairs = new ArrayList<>();
            try {
                for (boolean two : layouts) {
                    LatencyDevices ours = LatencyDevices.ours(server, two, peerJvmArgs, peerArgs, jfr,
                            stages.traceDir());
                    pairs.add(new LatencyDevices[] {ours, null});
                    pairs.get(pairs.size() - 1)[1] = LatencyDevices.node(nodeServer, two, stages.traceDir());
                    clocks.add(LatencyDevices.describe(two) + ": ours " + ours.clockNote + "; Node "
                            + pairs.get(pairs.size() - 1)[1].clockNote);
                }
                for (LatencyDevices[] pair : pairs) {
                    for (int rate : rates) {
                        for (LatencyDevices devices : pair) {
                            System.err.println("warm-up (not measured): " + (devices.ours ? "ours " : "node ")
                                    + LatencyDevices.describe(devices.twoProcesses) + " "
                                    + devices.run(rate, warmUp / rates.length));
                        }
                    }
                }
                settle(pairs, rates, seconds, server, settling);
                stages.begin(server.port, nodeServer.port);
                try {
                    for (int round = 1; round <= rounds; round++) {
                        for (int rate : rates) {
                            for (LatencyDevices[] pair : pairs) {
                                measured.add(round(pair, rate, seconds, round, server, nodeServer, serverGc,
                                        stages));
                            }
                        }
                    }
                } finally {
                    stages.end();
                }
            } finally {
                for (LatencyDevices[] pair : pairs) {
                    for (LatencyDevices devices : pair) {
                        if (devices != null) {
                            devices.close();
                        }
                    }
                }
            }
            stagesSection = stages.section();
        }
        report(measured, rates, layouts, rounds, seconds, Report.num(warmUp, 0) + " s (split across the rates),"
                + " then by passes of unmeasured rounds as the measured ones run until every round of a pass had the"
                + " JIT compilers under " + Report.num(100 * LatencyBenchmark.SETTLED_JIT_SHARE, 0) + " % of the CPU"
                + " of each of our JVMs (at most " + MAX_SETTLING_PASSES + "; Node's got as many): "
                + JitShares.settled(settling) + ",", clocks, loadBefore, stagesSection).write(args);
    }

    /**
     * Passes of unmeasured rounds as the measured ones run (each rate in turn, each layout, ours and Node's) until
     * in every round of a pass the JIT compilers took under {@link LatencyBenchmark#SETTLED_JIT_SHARE} of the CPU
     * of each of our JVMs (sender, receiver, server), at most {@link #MAX_SETTLING_PASSES}; Node's
     * devices get as many. Adds each pass's largest share to {@code settling}.
     */
    private static void settle(List<LatencyDevices[]> pairs, int[] rates, double seconds, ServerUnderTest server,
                               List<Double> settling) throws Exception {
        boolean settled = false;
        while (!settled && settling.size() < MAX_SETTLING_PASSES) {
            double worst = 0;
            for (LatencyDevices[] pair : pairs) {
                for (int rate : rates) {
                    JitShares jit = JitShares.start(pair[0].pids(server));
                    pair[0].run(rate, seconds);
                    worst = Math.max(worst, JitShares.worst(jit.shares()));
                    pair[1].run(rate, seconds);
                }
            }
            settling.add(worst);
            System.err.println("settling pass " + settling.size() + ": the compilers' largest share of a round "
                    + Report.num(100 * worst, 0) + " %");
            settled = worst < LatencyBenchmark.SETTLED_JIT_SHARE;
        }
    }

    /**
     * One round: ours and Node at {@code rate}, in turns whose order alternates by round (so that neither always
     * runs right after the other's load).
     */
    private static Round round(LatencyDevices[] pair, int rate, double seconds, int round, ServerUnderTest server,
                               ServerUnderTest nodeServer, GcLog serverGc, StageCapture stages) throws Exception {
        String load = LoadAverage.now();
        LatencyDevices.Measured ours = null;
        LatencyDevices.Measured node = null;
        String peerPauses = "";
        String serverPauses = "";
        String oursCounts = "";
        String nodeCounts = "";
        List<LatencyThreadWakeUps.Sample> oursThreads = List.of();
        for (int turn = 0; turn < 2; turn++) {
            boolean oursTurn = (turn == 0) == (round % 2 == 1);
            LatencyDevices devices = pair[oursTurn ? 0 : 1];
            long[] pids = devices.pids(oursTurn ? server : nodeServer);
            long[] allocatedBefore = devices.allocated(pids);
            List<Map<String, Long>> wakeUpsBefore = oursTurn ? LatencyThreadWakeUps.snapshot(pids) : List.of();
            List<Map<String, Long>> threadsBefore = perThread ? devices.allocatedByThread() : List.of();
            ProcessCounters[] before = LatencyDevices.counters(pids);
            RunQueueWait waitBefore = RunQueueWait.of(pids);
            if (oursTurn) {
                long[] marks = devices.gcMarks();
                long serverMark = serverGc.mark();
                JitShares jit = JitShares.start(pids);
                ours = devices.run(rate, seconds);
                stages.ran(round, rate, devices, server.port);
                oursCounts = devices.countsSince(pids, before, allocatedBefore, ours.received()) + ", "
                        + RunQueueWait.perMessage(RunQueueWait.of(pids).since(waitBefore), ours.received(),
                        devices.twoProcesses) + ", " + JitShares.describe(jit.shares(), devices.twoProcesses);
                oursThreads = LatencyThreadWakeUps.since(rate, devices.twoProcesses, wakeUpsBefore,
                        LatencyThreadWakeUps.snapshot(pids), ours.received());
                if (perThread) {
                    oursThreads.forEach(t -> System.err.println("  " + t.process() + " wake-ups a message by "
                            + "thread: " + t.perMessage()));
                    perThread(devices, threadsBefore, ours.received());
                }
                peerPauses = devices.pausesSince(marks);
                serverPauses = serverGc.pausesSince(serverMark).toString();
            } else {
                node = devices.run(rate, seconds);
                stages.ran(round, rate, devices, nodeServer.port);
                nodeCounts = devices.countsSince(pids, before, allocatedBefore, node.received()) + ", "
                        + RunQueueWait.perMessage(RunQueueWait.of(pids).since(waitBefore), node.received(),
                        devices.twoProcesses);
            }
        }
        Round r = new Round(rate, pair[0].twoProcesses, round, ours, node, peerPauses, serverPauses, load,
                oursCounts, nodeCounts, oursThreads);
        System.err.println("round " + round + " " + rate + "/s " + LatencyDevices.describe(r.twoProcesses())
                + ": ours " + ours + " " + oursCounts + ", node " + node + " " + nodeCounts
                + "; peers' collections " + peerPauses + "; server's " + serverPauses + "; load " + load);
        return r;
    }

    /** Prints to stderr the bytes per message of each of our processes' threads in the round. */
    private static void perThread(LatencyDevices devices, List<Map<String, Long>> allocatedBefore, int messages) {
        List<Map<String, Long>> allocated = devices.allocatedByThread();
        String[] names = {"sender", "receiver", "server"};
        for (int i = 0; i < allocated.size() && i < allocatedBefore.size(); i++) {
            if (i == 1 && !devices.twoProcesses) {
                continue;
            }
            System.err.println("  " + names[i] + " bytes a message by thread: "
                    + ProcessCounters.perMessage(allocatedBefore.get(i), allocated.get(i), messages));
        }
    }

    static Report report(List<Round> rounds, int[] rates, List<Boolean> layouts, int roundCount, double seconds,
                         String warmUp, List<String> clocks, String loadBefore, LatencyStagesTable.Section stages) {
        Report report = new Report("Reference server: latency with sender and receiver as devices");
        report.paragraph("The peers run as users run them, both stacks alike: sender and receiver each in a "
                + "process of its own, as two users' devices" + (layouts.contains(false) ? ", and both in one "
                + "process, as a bot fleet" : "") + ". Ours: SDK clients with the default options in their own JVMs"
                + " (`LatencyPeer`) through the reference server (a child JVM); Node: official socket.io-client "
                + "4.8.4 processes (`node/latency-peer.js`) through the official server as the relay. Each device "
                + "process was warmed up for " + warmUp + " before " + roundCount + " interleaved rounds of "
                + Report.num(seconds, 0) + " s per rate (ours and Node "
                + "in turns, the first turn alternating by round). Latency: the receiver's CLOCK_MONOTONIC at "
                + "the event minus the sender's stamp, ms (both read the machine's one monotonic clock, checked "
                + "at the start: " + String.join("; ", clocks) + "). Each figure is the median of the rounds, "
                + "with the lowest and highest round in brackets; the ratio columns give ours ÷ Node of the "
                + "median and of the worst round (the round with the highest ratio), which the summary holds "
                + "against the target. Load average (1 / 5 min) before the run: " + loadBefore + ".");
        Report.Table table = report.table("msg/s", "layout", "ours p50", "ours p99", "ours p99.9", "Node p50",
                "Node p99", "Node p99.9", "p99 ours ÷ Node", "worst round's p99 ratio", "delivered ours / Node");
        for (boolean two : layouts) {
            for (int rate : rates) {
                List<Round> of = rounds.stream().filter(r -> r.rate() == rate && r.twoProcesses() == two).toList();
                if (of.isEmpty()) {
                    continue;
                }
                double worst = of.stream().mapToDouble(r -> r.ours().p99() / r.node().p99()).max().orElse(Double.NaN);
                table.row(Report.num(rate, 0), LatencyDevices.describe(two), spread(of, r -> r.ours().p50()),
                        spread(of, r -> r.ours().p99()), spread(of, r -> r.ours().p999()),
                        spread(of, r -> r.node().p50()), spread(of, r -> r.node().p99()),
                        spread(of, r -> r.node().p999()),
                        Report.ratio(median(of, r -> r.ours().p99()), median(of, r -> r.node().p99())),
                        Double.isNaN(worst) ? "-" : Report.num(worst, 2) + "×",
                        of.stream().mapToInt(r -> r.ours().received()).sum() + " / "
                                + of.stream().mapToInt(r -> r.ours().sent()).sum() + "; "
                                + of.stream().mapToInt(r -> r.node().received()).sum() + " / "
                                + of.stream().mapToInt(r -> r.node().sent()).sum());
                String key = "latency." + (two ? "twoProcesses" : "oneProcess") + ".";
                report.result(row(key + "p50@" + rate, of, LatencyDevices.Measured::p50))
                        .result(row(key + "p99@" + rate, of, LatencyDevices.Measured::p99))
                        .result(row(key + "p999@" + rate, of, LatencyDevices.Measured::p999));
            }
        }
        table.end();
        report.paragraph("Every round, with the collections of ours in the measured window (the peer JVMs' and "
                + "the server's, from their `-Xlog:gc,gc+phases,safepoint`), and per message delivered, for each "
                + "stack: the thread wake-ups (voluntary context switches of all the process's threads, from /proc)"
                + " and CPU µs of sender / server / receiver, which hold while other work shares the cores (a "
                + "hand-off between threads is a wake-up), and the µs their threads were runnable but waiting for a"
                + " CPU (schedstat's run-queue wait, from /proc), which grows with that other work; for ours also "
                + "the KB allocated (1,000 bytes; each JVM's threads' `getThreadAllocatedBytes`, read through the "
                + "attach API's management agent), what the collectors' pauses are made of, and the JIT compilers'"
                + " share of each JVM's CPU in the round; and the load average before the round.");
        Report.Table each = report.table("round", "msg/s", "layout", "ours p99", "Node p99", "ratio", "ours p99.9",
                "Node p99.9", "ours per message", "Node per message", "peers' collections", "server's collections",
                "load");
        for (Round r : rounds) {
            each.row(String.valueOf(r.round()), Report.num(r.rate(), 0), LatencyDevices.describe(r.twoProcesses()),
                    LatencyDevices.num(r.ours().p99()), LatencyDevices.num(r.node().p99()),
                    Report.ratio(r.ours().p99(), r.node().p99()), LatencyDevices.num(r.ours().p999()),
                    LatencyDevices.num(r.node().p999()), r.oursCounts(), r.nodeCounts(), r.peerPauses(),
                    r.serverPauses(), r.load());
        }
        each.end();
        LatencyThreadWakeUps.add(report, rounds.stream().flatMap(r -> r.oursThreads().stream()).toList());
        LatencyStagesTable.add(report, stages);
        report.paragraph(LatencyLayoutsProse.WHY);
        return report;
    }

    /** "median [lowest–highest]" of the rounds' {@code value}. */
    static String spread(List<Round> rounds, ToDoubleFunction<Round> value) {
        double[] all = rounds.stream().mapToDouble(value).toArray();
        double lowest = Arrays.stream(all).min().orElse(Double.NaN);
        double highest = Arrays.stream(all).max().orElse(Double.NaN);
        return LatencyDevices.num(Report.median(all)) + " [" + LatencyDevices.num(lowest) + "–"
                + LatencyDevices.num(highest) + "]";
    }

    private static double median(List<Round> rounds, ToDoubleFunction<Round> value) {
        return Report.median(rounds.stream().mapToDouble(value).toArray());
    }

    /** A summary row: the medians of the rounds and each round's pair, ours and Node's, in round order. */
    static ResultRows.Row row(String measure, List<Round> rounds, ToDoubleFunction<LatencyDevices.Measured> value) {
        List<ResultRows.Round> pairs = new ArrayList<>();
        for (Round r : rounds) {
            pairs.add(new ResultRows.Round(value.applyAsDouble(r.ours()), value.applyAsDouble(r.node())));
        }
        return new ResultRows.Row(measure, median(rounds, r -> value.applyAsDouble(r.ours())),
                median(rounds, r -> value.applyAsDouble(r.node())), "ms", pairs, "");
    }
}
