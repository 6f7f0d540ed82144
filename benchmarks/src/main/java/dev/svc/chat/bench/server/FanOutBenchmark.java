package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.LoadAverage;
import dev.svc.chat.bench.support.Report;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fan-out of one room: REST senders to a room of 10, 100, 1,000 and 10,000 members through our reference server
 * (a child JVM, compression off) and through the official Node socket.io server ({@code io.to(room).emit},
 * node/fanout-server.js), with the same load side for both ({@link LoadSide}: several sender processes, the
 * members spread over several processes). Both servers' rooms of a size are open at once, and each row is the
 * median of rounds that interleave them (who goes first alternates): in each round Node and ours run as fast as
 * the senders' requests in flight allow, then ours offered 1.0, 1.5, 1.6, 1.75 times that round's Node deliveries
 * a second (the target, "1.5 times Node's deliveries/s at the same p99", measured as it is stated; 1.6 because a
 * paced run delivers a little under what it is offered, so an offer of 1.5 alone never shows 1.5, and 1.75 for the
 * headroom beyond). A run whose busiest load-side process used more than 0.8 of a core is invalid, and so is the
 * row it is in.
 *
 * <p>Arguments: {@code --sizes 10,100,1000,10000}, {@code --rounds 5}, {@code --factors 1,1.5,1.6,1.75} (the paced
 * offered loads), {@code --senders 2}, {@code --member-processes 4}, {@code --in-flight 8} (over all senders),
 * {@code --max-load-core 0.8} (a run is invalid when one load-side process used more of a core),
 * {@code --api-key-from 10000} (on ours, rooms of this many members or more have API-key members that join the
 * room, see {@link FanOutReport}), {@code --ab 1000} (room sizes where ours also runs once with the other kind of
 * member), {@code --messages N} (a run's messages instead of {@link #messagesFor}), {@code --first-warmup N} and
 * {@code --room-warmup N} (the deliveries of warm-up a server's first room and every room get at least, 200,000
 * and 100,000 unless given, both servers alike), {@code --settle-cap S} (ours then keeps warming up in runs of a
 * room's messages until its JIT compilers' share of its CPU over the last such run is under 5 %, for at most S
 * seconds a room, 30 unless given), {@code --server-args "..."}, {@code --server-jvm-args "..."}, {@code --jfr DIR}
 * ({@code --jfr-settings FILE.jfc}), {@code --out FILE}.
 */
public final class FanOutBenchmark {
    /** The JIT compilers' share of our server's CPU under which a warm-up has settled. */
    static final double SETTLED_JIT_SHARE = 0.05;

    /** What a room's warm-up took: messages, seconds, the compilers' share in its last run, whether it was capped. */
    record Warmup(long messages, double seconds, double lastJitShare, boolean capped) {
    }

    /** A room size's measured rounds (each list in round order) and its warm-ups. */
    record Rows(List<FanOutRun> node, List<FanOutRun> ours, List<FanOutRun[]> paced, Warmup nodeWarmup,
                Warmup oursWarmup, double[] connectSeconds, FanOutRun[] byKind) {
    }

    private FanOutBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int[] sizes = ints(Report.option(args, "--sizes", "10,100,1000,10000"));
        int rounds = Integer.parseInt(Report.option(args, "--rounds", "5"));
        double[] factors = Arrays.stream(Report.option(args, "--factors", "1,1.5,1.6,1.75").split(","))
                .mapToDouble(Double::parseDouble).toArray();
        LoadSide.Shape shape = new LoadSide.Shape(Integer.parseInt(Report.option(args, "--member-processes", "4")),
                Integer.parseInt(Report.option(args, "--senders", "2")),
                Integer.parseInt(Report.option(args, "--in-flight", "8")),
                Double.parseDouble(Report.option(args, "--max-load-core", String.valueOf(FanOutRun.MAX_LOAD_CORE))));
        int apiKeyFrom = Integer.parseInt(Report.option(args, "--api-key-from", "10000"));
        List<Integer> ab = Arrays.stream(ints(Report.option(args, "--ab", ""))).boxed().toList();
        int messagesOption = Integer.parseInt(Report.option(args, "--messages", "0"));
        long firstWarmup = Long.parseLong(Report.option(args, "--first-warmup", "200000"));
        long roomWarmup = Long.parseLong(Report.option(args, "--room-warmup", "100000"));
        double settleCap = Double.parseDouble(Report.option(args, "--settle-cap", "30"));
        String loadBefore = LoadAverage.now();
        long started = System.nanoTime();
        Map<Integer, Rows> rows = new LinkedHashMap<>();
        long[] peakMiB = new long[2];
        try (ServerUnderTest node = ServerUnderTest.node();
             ServerUnderTest ours = ServerUnderTest.ours(args, "fanout-ours.jfr")) {
            for (int size : sizes) {
                int messages = messagesOption > 0 ? messagesOption : messagesFor(size);
                boolean byApiKey = size >= apiKeyFrom;
                try (LoadSide n = LoadSide.open(node, size, false, shape);
                     LoadSide o = LoadSide.open(ours, size, byApiKey, shape)) {
                    System.err.printf("%d members connected: Node's in %.1f s, ours in %.1f s%n", size,
                            n.connectSeconds, o.connectSeconds);
                    long minimum = Math.max(roomWarmup, node.warmedUp ? 0 : firstWarmup);
                    int warmupMessages = (int) Math.max(messages, (minimum + size - 1) / size);
                    node.warmedUp = true;
                    ours.warmedUp = true;
                    Warmup nodeWarmup = warmUp(n, warmupMessages, messages, 0);
                    Warmup oursWarmup = warmUp(o, warmupMessages, messages, settleCap);
                    System.err.println("warm-ups: Node " + nodeWarmup + ", ours " + oursWarmup);
                    List<FanOutRun> nodeRuns = new ArrayList<>();
                    List<FanOutRun> oursRuns = new ArrayList<>();
                    List<FanOutRun[]> pacedRuns = new ArrayList<>();
                    for (int r = 0; r < rounds; r++) {
                        // who goes first alternates, so that a drift of the machine's load hits both alike
                        FanOutRun nr = null;
                        FanOutRun or;
                        if (r % 2 == 0) {
                            nr = n.run(messages, 0);
                            or = o.run(messages, 0);
                        } else {
                            or = o.run(messages, 0);
                            nr = n.run(messages, 0);
                        }
                        FanOutRun[] paced = new FanOutRun[factors.length];
                        for (int i = 0; i < factors.length; i++) {
                            paced[i] = o.run(messages, factors[i] * nr.perSecond() / size);
                        }
                        nodeRuns.add(nr);
                        oursRuns.add(or);
                        pacedRuns.add(paced);
                        System.err.printf("%d members, round %d (load %s): Node %s%n  ours %s%n  paced %s%n", size,
                                r + 1, LoadAverage.now(), nr, or, Arrays.toString(paced));
                    }
                    FanOutRun[] byKind = null;
                    if (ab.contains(size)) {
                        // The same room size with the other kind of member, unpaced, once: what the kind costs.
                        try (LoadSide other = LoadSide.open(ours, size, !byApiKey, shape)) {
                            warmUp(other, messages, messages, 0);
                            FanOutRun k = other.run(messages, 0);
                            FanOutRun same = median(oursRuns); // the room of this size's own kind
                            byKind = byApiKey ? new FanOutRun[] {k, same} : new FanOutRun[] {same, k}; // token, API-key
                        }
                    }
                    rows.put(size, new Rows(nodeRuns, oursRuns, pacedRuns, nodeWarmup, oursWarmup,
                            new double[] {o.connectSeconds, n.connectSeconds}, byKind));
                }
            }
            peakMiB[0] = ours.peakMemoryMiB();
            peakMiB[1] = node.peakMemoryMiB();
        }
        double minutes = (System.nanoTime() - started) / 60e9;
        new FanOutReport(rows, factors, shape, apiKeyFrom, peakMiB, rounds, settleCap)
                .report(loadBefore, LoadAverage.now(), minutes).write(args);
    }

    /**
     * Warms a room up: {@code minimum} messages, then, while the server's JIT compilers used at least
     * {@link #SETTLED_JIT_SHARE} of its CPU over the last run, runs of {@code batch} messages for at most
     * {@code capSeconds} (0: no such runs, as for Node, whose compilers have no threads of their own to measure).
     */
    static Warmup warmUp(LoadSide load, int minimum, int batch, double capSeconds) throws Exception {
        long started = System.nanoTime();
        FanOutRun last = load.run(minimum, 0);
        long messages = minimum;
        boolean capped = false;
        while (capSeconds > 0 && !(last.jitShare() < SETTLED_JIT_SHARE)) {
            if ((System.nanoTime() - started) / 1e9 >= capSeconds) {
                capped = true;
                break;
            }
            last = load.run(batch, 0);
            messages += batch;
        }
        return new Warmup(messages, (System.nanoTime() - started) / 1e9, last.jitShare(), capped);
    }

    /**
     * Messages per run: about 100,000 deliveries, so that a run's p99 rests on some 1,000 of them whatever the
     * room (at 10 members a run of 3,000 messages lasted about a second, and one pause of either process made its
     * p99), at least 50 (500,000 deliveries at 10,000 members: with fewer, the paced run's few seconds were mostly
     * its last message's latency).
     */
    static int messagesFor(int members) {
        return Math.max(50, 100_000 / members);
    }

    /** The run of median deliveries a second among {@code runs} (a run as it was, not a mix of runs). */
    static FanOutRun median(List<FanOutRun> runs) {
        List<FanOutRun> sorted = new ArrayList<>(runs);
        sorted.sort((a, b) -> Double.compare(a.perSecond(), b.perSecond()));
        return sorted.get((sorted.size() - 1) / 2);
    }

    private static int[] ints(String list) {
        return Arrays.stream(list.split(",")).filter(s -> !s.isBlank()).mapToInt(Integer::parseInt).toArray();
    }
}
