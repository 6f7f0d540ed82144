package dev.svc.chat.bench.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.bench.support.GcLog;
import dev.svc.chat.bench.support.ProcessCounters;
import dev.svc.chat.bench.support.Report;
import dev.svc.chat.bench.support.ResultRows;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Latency sender → server → receiver at a fixed rate. Ours: an SDK client's {@code sendMessage} into the
 * reference server (a child JVM) and a second SDK client's {@code on(NEW_MESSAGE)}, both in this JVM; once with
 * the SDK's default (sends over the socket, pipelined) and once with {@code socketSends(false)} (REST, one send
 * in flight per room).
 * Peer: the official Node pair (node/latency-pair.js: one socket.io-client emits, the official server
 * relays to the room, the other client receives). Each rate runs for {@code --seconds} (default 6) after
 * 300 warm-up messages; before the measured rounds each server gets one unmeasured round of twice that length at each rate
 * ({@code --warm-up-round no} leaves them out).
 *
 * <p>Arguments: {@code --rates 1000,5000}, {@code --seconds 6}, {@code --rounds 1}, {@code --only ours|rest|node},
 * {@code --warm-up-round yes|no},
 * {@code --server-args "..."}, {@code --jfr DIR}, {@code --out FILE}.
 */
public final class LatencyBenchmark {

    /**
     * One measured point (milliseconds). For ours also: the most sends unanswered at once (queued in the
     * outbox or in flight), and per message of the measured window the counts of the server's JVM and of this
     * one (sender and receiver), and this JVM's collections.
     */
    record Point(int rate, int sent, int received, double p50, double p99, double p999, int maxUnanswered,
                 Cost server, Cost clients) {
        Point(int rate, int sent, int received, double p50, double p99, double p999) {
            this(rate, sent, received, p50, p99, p999, -1, null, null);
        }
    }

    /**
     * Counts per message of one JVM in the measured window (see {@link ProcessCounters}), and its collector's
     * pauses in the window.
     */
    record Cost(double writes, double wakeUps, double cpuMicros, double jitMicros, GcLog.Pauses pauses) {
        static Cost of(ProcessCounters counted, int messages, double jitSeconds, GcLog.Pauses pauses) {
            return new Cost(counted.writesPer(messages), counted.wakeUpsPer(messages),
                    counted.cpuMicrosPer(messages), jitSeconds * 1e6 / Math.max(1, messages), pauses);
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%.2f writes, %.2f wake-ups, %.0f µs CPU per message "
                    + "(JIT %.0f), collections %s", writes, wakeUps, cpuMicros, jitMicros, pauses);
        }
    }

    public static void main(String[] args) throws Exception {
        int[] rates = Arrays.stream(Report.option(args, "--rates", "1000,5000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int seconds = Integer.parseInt(Report.option(args, "--seconds", "6"));
        int rounds = Integer.parseInt(Report.option(args, "--rounds", "1"));
        String only = Report.option(args, "--only", "both");
        boolean warmUpRound = !Report.option(args, "--warm-up-round", "yes").equals("no");
        Map<Integer, List<Point>> ours = new LinkedHashMap<>();
        Map<Integer, List<Point>> rest = new LinkedHashMap<>();
        Map<Integer, List<Point>> node = new LinkedHashMap<>();
        boolean runOurs = !only.equals("node");
        boolean runNode = only.equals("both") || only.equals("node");
        GcLog serverGc = new GcLog();
        try (ServerUnderTest server = runOurs
                ? ServerUnderTest.ours(args, "latency-ours.jfr", List.of(serverGc.jvmArgument())) : null;
             ServerUnderTest nodeServer = runNode ? ServerUnderTest.node() : null) {
            // One unmeasured round of twice the seconds on each server at each rate first, so that the measured
            // rounds find JVMs whose JIT compilers have settled: the first seconds of a fresh server JVM are mostly
            // its compilers, and code compiled while 5,000/s kept the queues busy is compiled again once 1,000/s
            // takes the idle paths (warmed by one round at 5,000/s, the first round at 1,000/s took 5 times the
            // CPU a message of the later ones; by a round of the measured length at each rate, still half of its
            // server CPU was the compilers'). Node gets the same.
            if (warmUpRound) {
                for (int rate : rates) {
                    if (runOurs && !only.equals("rest")) {
                        System.err.println("warm-up (not measured): ours " + ours(server, serverGc, rate,
                                2 * seconds, true));
                    }
                    if (runNode) {
                        System.err.println("warm-up (not measured): node " + nodePair(nodeServer, rate,
                                2 * seconds));
                    }
                }
            }
            // rounds interleave ours and Node, so that a burst of other load on the machine hits both
            for (int round = 0; round < rounds; round++) {
                for (int rate : rates) {
                    if (runOurs && !only.equals("rest")) {
                        add(ours, ours(server, serverGc, rate, seconds, true), "ours");
                    }
                    // REST-only is far behind at these rates (queueing, seconds): once is enough to show it
                    if (runOurs && !only.equals("ours") && round == 0) {
                        add(rest, ours(server, serverGc, rate, seconds, false), "ours over REST");
                    }
                    if (runNode) {
                        add(node, nodePair(nodeServer, rate, seconds), "node");
                    }
                }
            }
        }
        report(ours, rest, node, rounds, warmUpRound).write(args);
    }

    /** Runs the official Node pair through the Node server at {@code rate} for {@code seconds}. */
    private static Point nodePair(ServerUnderTest nodeServer, int rate, int seconds) throws Exception {
        try (ChildProcess pair = ChildProcess.node("latency-pair.js", "--url", nodeServer.baseUrl(),
                "--rate", String.valueOf(rate), "--seconds", String.valueOf(seconds))) {
            JsonNode r = Http.JSON.readTree(pair.await("RESULT", (seconds + 60) * 1000L));
            return new Point(rate, r.get("sent").asInt(), r.get("received").asInt(),
                    r.get("p50").asDouble(), r.get("p99").asDouble(), r.get("p999").asDouble());
        }
    }

    private static void add(Map<Integer, List<Point>> into, Point p, String what) {
        into.computeIfAbsent(p.rate(), k -> new ArrayList<>()).add(p);
        System.err.println(what + " " + p);
    }

    static Point ours(ServerUnderTest server, GcLog serverGc, int rate, int seconds, boolean socketSends)
            throws Exception {
        Http http = new Http();
        String api = server.baseUrl() + "/v1";
        String prefix = "l" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<String> tokens = http.tokens(api, List.of(prefix + "sender", prefix + "receiver"));
        String roomId = http.post(api + "/chat/rooms", ServerUnderTest.API_KEY, "{\"memberIds\":[\"" + prefix
                + "sender\",\"" + prefix + "receiver\"]}").get("id").textValue();
        int total = rate * seconds;
        int warmup = 300;
        double[] latencies = new double[total];
        AtomicInteger received = new AtomicInteger();
        AtomicInteger warmed = new AtomicInteger();
        CountDownLatch warm = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        try (ChatClient sender = Svc.init(SvcOptions.builder(api).socketSends(socketSends).build());
             ChatClient receiver = Svc.init(api)) {
            sender.connect(prefix + "sender", tokens.get(0)).get(30, TimeUnit.SECONDS);
            receiver.connect(prefix + "receiver", tokens.get(1)).get(30, TimeUnit.SECONDS);
            receiver.on(EventType.NEW_MESSAGE, m -> {
                long now = System.nanoTime();
                String text = m.text();
                if (text.startsWith("w")) {
                    if (warmed.incrementAndGet() == warmup) {
                        warm.countDown();
                    }
                    return;
                }
                int i = received.getAndIncrement();
                if (i < total) {
                    latencies[i] = (now - Long.parseLong(text)) / 1e6;
                }
                if (i + 1 == total) {
                    done.countDown();
                }
            });
            for (int i = 0; i < warmup; i++) {
                sender.sendMessage(roomId, List.of(MessagePart.text("w" + System.nanoTime())));
            }
            if (!warm.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the warm-up messages did not arrive");
            }
            AtomicInteger answered = new AtomicInteger();
            int maxUnanswered = 0;
            ProcessCounters serverBefore = ProcessCounters.of(server.pid());
            ProcessCounters selfBefore = ProcessCounters.self();
            Map<String, Long> serverThreads = ProcessCounters.wakeUpsByThread(server.pid());
            Map<String, Long> selfThreads = ProcessCounters.wakeUpsByThread(ProcessHandle.current().pid());
            long[] gcBefore = collections();
            long serverGcMark = serverGc.mark();
            long self = ProcessHandle.current().pid();
            double serverJitBefore = ChildProcess.jitCpuSeconds(server.pid());
            double selfJitBefore = ChildProcess.jitCpuSeconds(self);
            long start = System.nanoTime();
            long interval = 1_000_000_000L / rate;
            int sent = 0;
            while (sent < total) {
                long due = Math.min(total, (System.nanoTime() - start) / interval + 1);
                while (sent < due) {
                    sender.sendMessage(roomId, List.of(MessagePart.text(Long.toString(System.nanoTime()))))
                            .whenComplete((m, e) -> answered.incrementAndGet());
                    sent++;
                    maxUnanswered = Math.max(maxUnanswered, sent - answered.get());
                }
                LockSupport.parkNanos(Math.max(0, start + sent * interval - System.nanoTime()));
            }
            done.await(10, TimeUnit.SECONDS);
            long[] gc = collections();
            ProcessCounters serverCounted = ProcessCounters.of(server.pid()).since(serverBefore);
            ProcessCounters selfCounted = ProcessCounters.self().since(selfBefore);
            int n = Math.min(total, received.get());
            System.err.println("wake-ups per message by thread, server: " + ProcessCounters.perMessage(serverThreads,
                    ProcessCounters.wakeUpsByThread(server.pid()), n));
            System.err.println("wake-ups per message by thread, sender and receiver: " + ProcessCounters.perMessage(
                    selfThreads, ProcessCounters.wakeUpsByThread(ProcessHandle.current().pid()), n));
            double[] got = Arrays.copyOf(latencies, n);
            return new Point(rate, sent, n, Report.percentile(got, 50), Report.percentile(got, 99),
                    Report.percentile(got, 99.9), maxUnanswered,
                    Cost.of(serverCounted, n, ChildProcess.jitCpuSeconds(server.pid()) - serverJitBefore,
                            serverGc.pausesSince(serverGcMark)),
                    Cost.of(selfCounted, n, ChildProcess.jitCpuSeconds(self) - selfJitBefore, new GcLog.Pauses((int) (gc[0] - gcBefore[0]), Double.NaN,
                            gc[1] - gcBefore[1])));
        }
    }

    /** Returns this JVM's collections so far and their total time in ms. */
    private static long[] collections() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    static Report report(Map<Integer, List<Point>> ours, Map<Integer, List<Point>> rest,
            Map<Integer, List<Point>> node, int rounds, boolean warmUpRound) {
        Report report = new Report("Reference server: latency sender → server → receiver");
        report.paragraph("A fixed send rate for a few seconds after 300 warm-up messages"
                + (warmUpRound ? ", each server first warmed up by one unmeasured round of twice that length at each"
                + " rate" : "")
                + "; latency from the send "
                + "call to the receiver's event, ms. Ours: SDK `sendMessage` into the reference server (child JVM), "
                + "an SDK receiver on `on(NEW_MESSAGE)`; \"socket\" is the SDK's default (sends as `send-message` "
                + "events on the gateway WebSocket, up to 256 per room in flight), \"REST\" the same sender with "
                + "`socketSends(false)` (one REST request per room in flight; one round only). Peer: the official "
                + "Node socket.io 4.8.4 pair through the official server as a relay (client emits, "
                + "`io.to(room).emit`, client receives). " + rounds + " interleaved round(s) per rate: the "
                + "percentiles are the medians of the rounds' percentiles, and the rounds' p99 are listed; "
                + "noisy while other work shares the 2 cores.");
        Report.Table table = report.table("msg/s", "ours p50", "ours p99", "ours p99.9", "ours p99 of rounds",
                "ours delivered", "REST p50", "REST p99", "REST delivered", "Node p50", "Node p99", "Node p99.9",
                "Node p99 of rounds", "Node delivered", "ratio p99 (ours / Node)");
        java.util.Set<Integer> rates = new java.util.LinkedHashSet<>(ours.keySet());
        rates.addAll(rest.keySet());
        rates.addAll(node.keySet());
        for (int rate : rates) {
            Point o = median(ours.get(rate));
            Point r = median(rest.get(rate));
            Point n = median(node.get(rate));
            table.row(Report.num(rate, 0), ms(o, Point::p50), ms(o, Point::p99), ms(o, Point::p999),
                    p99s(ours.get(rate)), delivered(o),
                    ms(r, Point::p50), ms(r, Point::p99), delivered(r),
                    ms(n, Point::p50), ms(n, Point::p99), ms(n, Point::p999), p99s(node.get(rate)), delivered(n),
                    o == null || n == null ? "-" : Report.ratio(o.p99(), n.p99()));
            double worst = ours.getOrDefault(rate, List.of()).stream().mapToDouble(Point::p99).max().orElse(Double.NaN);
            // Each row carries its rounds (ours and Node's of the same round): the summary holds a target met only
            // if every round meets it.
            List<Point> or = ours.getOrDefault(rate, List.of());
            List<Point> nr = node.getOrDefault(rate, List.of());
            report.result(row("latency.p50@" + rate, o, n, or, nr, Point::p50))
                    .result(row("latency.p99@" + rate, o, n, or, nr, Point::p99))
                    .result(row("latency.p999@" + rate, o, n, or, nr, Point::p999))
                    .result(new ResultRows.Row("latency.p99.worstRound@" + rate, worst, of(n, Point::p99), "ms",
                            rounds(or, nr, Point::p99), ""));
        }
        table.end();
        report.paragraph("Counts of the measured window per message delivered, which hold while other work shares "
                + "the cores (ours over the socket, every round): the most sends unanswered at once (queued in the "
                + "outbox or in flight; the window is 256 a room), the write calls of each JVM (`syscw` of "
                + "/proc: a socket write is one; the server sends three frames a message, the ack and the "
                + "`new-message` to sender and receiver), thread wake-ups (voluntary context switches summed over "
                + "the JVM's threads), CPU time (and of it the JIT compilers' threads', C1 and C2), and collections (the server's pauses from its "
                + "`-Xlog:gc,gc+phases,safepoint`: how many, the longest, their sum and how much of it G1 spent "
                + "evacuating, that is copying the live young objects, the messages stored since the last one "
                + "among them; and the longest any safepoint took to reach, the threads' time to stop; the "
                + "benchmark JVM, sender and receiver, from its collector beans).");
        Report.Table counts = report.table("msg/s", "round", "most unanswered", "server writes", "server wake-ups",
                "server CPU µs (of it JIT)", "server collections", "SDK writes", "SDK wake-ups",
                "SDK CPU µs (of it JIT)",
                "SDK collections");
        for (int rate : rates) {
            List<Point> points = ours.getOrDefault(rate, List.of());
            for (int i = 0; i < points.size(); i++) {
                Point p = points.get(i);
                if (p.server() == null) {
                    continue;
                }
                counts.row(Report.num(rate, 0), String.valueOf(i + 1), Report.num(p.maxUnanswered(), 0),
                        Report.num(p.server().writes(), 2), Report.num(p.server().wakeUps(), 2),
                        cpu(p.server()), p.server().pauses().toString(),
                        Report.num(p.clients().writes(), 2), Report.num(p.clients().wakeUps(), 2),
                        cpu(p.clients()), p.clients().pauses().toString());
            }
        }
        counts.end();
        report.paragraph(WHY);
        return report;
    }

    private static String cpu(Cost cost) {
        return Report.num(cost.cpuMicros(), 0) + " (" + Report.num(cost.jitMicros(), 0) + ")";
    }

    static final String WHY = "Why: over REST the SDK's outbox keeps one send in flight per room (the server numbers a"
            + " room's messages in the order their requests arrive, and two requests on two HTTP connections may"
            + " arrive swapped), so one sender's rate into one room is at most one message per REST round trip;"
            + " above it sends queue in the outbox and the latency is queueing (messages not delivered when the"
            + " window closed were still queued, not lost). Over the socket the SDK pipelines a room's sends on the"
            + " one ordered WebSocket and the reference server handles a connection's `send-message` events in"
            + " order, each stored before the next is read, so order holds without a round trip per message.\n\n"
            + "The tail at 5,000/s was the SDK's window, not the cores alone. A room's rate over the socket is at"
            + " most its sends in flight over the acknowledgement's round trip (Little's law): with 32 a room,"
            + " 5,000/s needed every ack within 6.4 ms. Any stall longer than that (a young collection in either"
            + " JVM, a core taken by another process) left the sends made meanwhile in the outbox, and that backlog"
            + " drained only 32 per round trip while new sends kept coming, so one pause became seconds of queue:"
            + " in development runs before the change the most sends unanswered at once at 5,000/s was 2,535 and"
            + " 17,234, 80 to 540 times the window (p50 270 ms and 3.4 s), with collector pauses of 9 to 436 ms"
            + " in both JVMs on the loaded machine (their `-Xlog:safepoint` shows no other stop: young collections"
            + " and cleanups, reached within 0.3 to 44 ms while threads waited for a core). The window is now 256"
            + " sends a room (and at most 4 MiB of frames in flight per connection across rooms, so that large sends"
            + " stay far below OkHttp's 16 MiB queue of outgoing frames, which closes the socket when it overflows):"
            + " 5,000/s flows"
            + " through round trips up to 51 ms, and a backlog drains as fast as the two processes work. The counts table gives each round's most sends"
            + " unanswered: beyond 256 they waited in the outbox for the window.\n\n"
            + "The server's writer pool woke for almost every frame: before the change, in development runs,"
            + " 0.3 to 2.1 writer wake-ups a message (2.1 at 1,000/s while the machine kept up; fewer when it did"
            + " not, as a late writer finds several frames queued), beside Jetty's threads (0.1 to 2.7) and the"
            + " fan-out thread (0.2 to 0.9). A frame that finds its connection's queue idle is now written by the"
            + " thread that queued it (the reader writes the ack, the fan-out thread a room event to up to 4"
            + " connections): no writer woke in any run since. Write calls: one frame per write while the sockets"
            + " keep up (2.8 to 3.1 write calls for a message's 3 frames, before and after); on a saturated machine"
            + " the old writer, woken late, gathered up to 6 frames per write (0.5 write calls a message) where"
            + " frames now leave one per write (2.6), for about the same CPU per message."
            + "\n\nThe rest of the tail at 5,000/s was the server's young collections. In the quiet run of 25 Nov"
            + " 2026, rounds 1 and 2 had 2 to 3 pauses of 45 to 50 ms each, nearly all of it evacuation, with every"
            + " safepoint reached within 2.1 ms. The G1 log with `gc+age=trace` and `gc+phases=debug` (27 Nov 2026,"
            + " quiet, 3 rounds at 5,000/s) said what was copied: pauses of 54 to 66 ms were 50 to 60 ms of Object"
            + " Copy for 11 to 17 MB of survivors, of which the messages stored since the last collection were"
            + " about 6.5 MB at age 1 (some 520 bytes a message) and the older ones were copied again at each age"
            + " until they tenured. The in-memory store now keeps a room's messages packed as bytes in a few large"
            + " arrays (docs/internals/server.md, \"What a stored message keeps\"): 0.3 objects and 383 bytes a"
            + " message"
            + " instead of 15.3 objects and 711 bytes, so a collection finds almost nothing of them to copy. The"
            + " same runs before and after on a loaded machine (busy-verify's spinners and a Maven build beside"
            + " them, two runs of each build, taking turns): the longest pause of a round 59 to 232 ms before and"
            + " 13 to 48 ms after, a worker's Object Copy at most 64 to 214 ms before and 4 to 21 ms after. A"
            + " shorter pause target (`-XX:MaxGCPauseMillis=10`, tried on 25 Nov, before the store changed) had"
            + " given more, shorter pauses and no better p99: it changes how often the collector copies, not what."
            + " Both servers now get one unmeasured round at each rate before the measured rounds: warmed at"
            + " 5,000/s alone, the first measured round at 1,000/s was still the server JVM's compilers (885 µs of"
            + " server CPU a message against 160 in the later rounds, with no collection at all; p99 7.9 ms); the"
            + " counts table gives the compilers' share that is left."
            + "\n\nLeft, and not changed here: the sender writes each frame in its own write call (1.0 a message:"
            + " OkHttp writes and flushes one frame at a time), and sender and receiver wake about 10 threads a"
            + " message at 1,000/s (the clients' actors 2.7, OkHttp's writer 2.5 and readers 2.0, the callback"
            + " executors 1.5, Okio's watchdog 0.9 for each frame's write timeout); the transport's part. When"
            + " both cores are taken by other work (load averages of 25 to 40 in development), CPU per message"
            + " (180 to 410 µs for sender and receiver and 140 to 380 µs for the server, measured under that"
            + " load) is the limit and neither window reaches 5,000/s."
            + "\n\nTwo layouts: here sender and receiver share the benchmark's JVM, and the Node pair shares one"
            + " process, as a bot fleet runs them; the section \"Reference server: latency with sender and"
            + " receiver as devices\" (`benchmarks/run latency-2proc`) runs each as its own device process,"
            + " both stacks alike, which is how two users' devices run. The first"
            + " round's tail at 5,000/s (13 ms in the run of 29 Nov 2026, against 4 to 6 ms in the later"
            + " rounds) came with the benchmark JVM's 3 collections of 30 ms in all (4 to 9 ms in the later"
            + " rounds). A fresh JVM's G1 starts its young generation at 3 regions of 4 MiB and grows it over"
            + " its first collections: with `-Xlog:gc*` on the benchmark JVM (a development run, load average"
            + " 37), 3, 3, 5, 24 and 56 regions over its first 25 s, and the heap expanded from 388 to 1,520"
            + " MiB as pauses ran long; the server JVM's first pass of `MetaspaceSize` starts a marking cycle"
            + " whose remark shrinks its heap, so its young generation starts again small (that section). The"
            + " warm-up rounds cover most of that growth, not always all of it.";

    /** A summary row: the medians and every round's pair (ours and Node's of that round, in round order). */
    private static ResultRows.Row row(String measure, Point o, Point n, List<Point> ours, List<Point> node,
                                      java.util.function.ToDoubleFunction<Point> value) {
        return new ResultRows.Row(measure, of(o, value), of(n, value), "ms", rounds(ours, node, value), "");
    }

    /** Round i's figure of ours and of Node (NaN where one of them has no round i). */
    static List<ResultRows.Round> rounds(List<Point> ours, List<Point> node,
                                         java.util.function.ToDoubleFunction<Point> value) {
        List<ResultRows.Round> rounds = new ArrayList<>();
        for (int i = 0; i < Math.max(ours.size(), node.size()); i++) {
            rounds.add(new ResultRows.Round(i < ours.size() ? value.applyAsDouble(ours.get(i)) : Double.NaN,
                    i < node.size() ? value.applyAsDouble(node.get(i)) : Double.NaN));
        }
        return rounds;
    }

    /** The medians of the rounds' percentiles, with every round's messages sent and received summed. */
    static Point median(List<Point> points) {
        if (points == null || points.isEmpty()) {
            return null;
        }
        double[] p50 = points.stream().mapToDouble(Point::p50).toArray();
        double[] p99 = points.stream().mapToDouble(Point::p99).toArray();
        double[] p999 = points.stream().mapToDouble(Point::p999).toArray();
        return new Point(points.get(0).rate(), points.stream().mapToInt(Point::sent).sum(),
                points.stream().mapToInt(Point::received).sum(), Report.percentile(p50, 50),
                Report.percentile(p99, 50), Report.percentile(p999, 50));
    }

    private static String p99s(List<Point> points) {
        if (points == null) {
            return "-";
        }
        List<String> all = new ArrayList<>();
        for (Point p : points) {
            all.add(ms(p.p99()));
        }
        return String.join(" / ", all);
    }

    private static String delivered(Point p) {
        return p == null ? "-" : p.received() + " / " + p.sent();
    }

    private static String ms(Point p, java.util.function.ToDoubleFunction<Point> value) {
        return p == null ? "-" : ms(value.applyAsDouble(p));
    }

    private static double of(Point p, java.util.function.ToDoubleFunction<Point> value) {
        return p == null ? Double.NaN : value.applyAsDouble(p);
    }

    private static String ms(double value) {
        return Double.isNaN(value) ? "-" : Report.num(value, value < 10 ? 2 : 0);
    }
}
