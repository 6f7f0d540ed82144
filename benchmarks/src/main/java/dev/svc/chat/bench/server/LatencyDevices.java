package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.GcLog;
import dev.svc.chat.bench.support.JvmAllocation;
import dev.svc.chat.bench.support.ProcessCounters;
import dev.svc.chat.bench.support.Report;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The processes of one stack in one layout of {@link LatencyLayoutsBenchmark}: a sender's and a receiver's
 * (two devices), or one with both (a bot fleet), each a {@link LatencyPeer} JVM (ours) or a
 * {@code node/latency-peer.js} (Node), and what corrects the receiver's clock against the sender's.
 *
 * <p>The clock: each peer stamps a message with its CLOCK_MONOTONIC and the receiver subtracts that stamp from
 * its own. On Linux HotSpot's {@code System.nanoTime()} and Node's {@code process.hrtime.bigint()} both read
 * CLOCK_MONOTONIC unshifted, one clock for every process of the machine; that is an implementation's property,
 * not a promise, so it is checked: the benchmark asks each peer for its clock between two readings of its own
 * (20 times, the tightest pair kept) and takes each peer's offset to its own clock within half that round
 * trip. Offsets that differ by no more than the two half round trips are the same clock (no correction); a
 * larger difference is subtracted from every latency.
 *
 * <p>Given a trace directory, the receiver (the pair's process in the one-process layout) writes each run's
 * stamps and receive times there, {@link #traceFile()}, for the benchmark's per-stage breakdown.
 */
final class LatencyDevices implements AutoCloseable {
    final boolean ours;
    final boolean twoProcesses;
    private final ChildProcess sender;
    private final ChildProcess receiver;
    /** The JVMs' collector logs (ours): the sender's, then the receiver's when it is another JVM. */
    final List<GcLog> gcLogs;
    /** The receiver's clock minus the sender's, ns (0 when they read the same clock). */
    final long correctionNanos;
    /** How the clocks compared, for the report. */
    final String clockNote;
    private int runs;
    /** Where the receiver writes each run's trace (null: it keeps none). */
    private final Path traceDir;
    /**
     * Our JVMs' allocation counters, in {@link #pids}'s order (the one-process layout's peer twice), attached at
     * the first {@link #allocated}; null for Node.
     */
    private JvmAllocation[] allocations;

    private LatencyDevices(boolean ours, boolean twoProcesses, ChildProcess sender, ChildProcess receiver,
                           List<GcLog> gcLogs, Path traceDir) throws InterruptedException, IOException {
        this.ours = ours;
        this.traceDir = traceDir;
        this.twoProcesses = twoProcesses;
        this.sender = sender;
        this.receiver = receiver;
        this.gcLogs = gcLogs;
        sender.await("READY", 60_000);
        if (receiver != sender) {
            receiver.await("READY", 60_000);
            long[] s = offset(sender);
            long[] r = offset(receiver);
            long difference = r[0] - s[0];
            long uncertainty = (r[1] + s[1]) / 2;
            correctionNanos = Math.abs(difference) <= uncertainty ? 0 : difference;
            clockNote = String.format(java.util.Locale.ROOT, "receiver's clock − sender's: %+.1f µs ± %.1f µs%s",
                    difference / 1e3, uncertainty / 1e3, correctionNanos == 0 ? " (the same clock)" : " (corrected)");
        } else {
            correctionNanos = 0;
            clockNote = "one process, one clock";
        }
    }

    /**
     * Our SDK's devices: a room of two new users on {@code server}, the peers' JVMs with {@code jvmArgs} and
     * {@code peerArgs} added to {@link LatencyPeer}'s command line; the receiver traces into {@code traceDir}
     * unless it is null.
     */
    static LatencyDevices ours(ServerUnderTest server, boolean twoProcesses, List<String> jvmArgs,
                               List<String> peerArgs, String jfr, Path traceDir)
            throws IOException, InterruptedException {
        DirectRoom direct = DirectRoom.open(server);
        String api = direct.api();
        String room = direct.roomId();
        String senderAuth = direct.senderId() + ":" + direct.senderToken();
        String receiverAuth = direct.receiverId() + ":" + direct.receiverToken();
        List<GcLog> logs = new ArrayList<>();
        List<String> receiving = new ArrayList<>(List.of("--receiver", receiverAuth));
        receiving.addAll(traceArgs(traceDir));
        if (twoProcesses) {
            ChildProcess s = ourPeer("sender", api, room, jvmArgs, peerArgs, jfr, logs, List.of("--sender",
                    senderAuth));
            ChildProcess r = ourPeer("receiver", api, room, jvmArgs, peerArgs, jfr, logs, receiving);
            return new LatencyDevices(true, true, s, r, logs, traceDir);
        }
        List<String> both = new ArrayList<>(List.of("--sender", senderAuth));
        both.addAll(receiving);
        ChildProcess pair = ourPeer("pair", api, room, jvmArgs, peerArgs, jfr, logs, both);
        return new LatencyDevices(true, false, pair, pair, logs, traceDir);
    }

    private static List<String> traceArgs(Path traceDir) {
        return traceDir == null ? List.of() : List.of("--trace-dir", traceDir.toString());
    }

    private static ChildProcess ourPeer(String role, String api, String room, List<String> jvmArgs,
                                        List<String> peerArgs, String jfr, List<GcLog> logs, List<String> roles)
            throws IOException {
        GcLog gc = new GcLog();
        logs.add(gc);
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xss512k", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", gc.jvmArgument()));
        command.addAll(jvmArgs);
        if (jfr != null) {
            command.add("-XX:StartFlightRecording=filename=" + Paths.get(jfr, "latency-" + role + ".jfr")
                    + ",settings=profile,dumponexit=true");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LatencyPeer.class.getName(),
                "--api", api, "--room", room));
        command.addAll(roles);
        command.addAll(peerArgs);
        return ChildProcess.start("latency-" + role, command, Map.of());
    }

    /**
     * The official Node client's devices, on the Node server; the receiver traces into {@code traceDir} unless it
     * is null.
     */
    static LatencyDevices node(ServerUnderTest server, boolean twoProcesses, Path traceDir)
            throws IOException, InterruptedException {
        String room = "latency-" + UUID.randomUUID();
        List<String> receiving = new ArrayList<>(List.of("--receiver"));
        receiving.addAll(traceArgs(traceDir));
        if (twoProcesses) {
            ChildProcess s = nodePeer(server, room, List.of("--sender"));
            ChildProcess r = nodePeer(server, room, receiving);
            return new LatencyDevices(false, true, s, r, List.of(), traceDir);
        }
        List<String> both = new ArrayList<>(List.of("--sender"));
        both.addAll(receiving);
        ChildProcess pair = nodePeer(server, room, both);
        return new LatencyDevices(false, false, pair, pair, List.of(), traceDir);
    }

    private static ChildProcess nodePeer(ServerUnderTest server, String room, List<String> roles)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--url", server.baseUrl(), "--room", room));
        args.addAll(roles);
        return ChildProcess.node("latency-peer.js", args.toArray(new String[0]));
    }

    /** The percentiles of one run (ms), with the messages sent and received. */
    record Measured(int sent, int received, double p50, double p99, double p999) {
    }

    /** Returns the tag of the last {@link #run}, which prefixes the text of each of its messages. */
    String lastTag() {
        return "r" + runs;
    }

    /**
     * Returns the trace file the receiver wrote for the last {@link #run}, {@code <dir>/<ours|node>-<tag>-<pid>.txt}
     * as both peers name it, or null when it traces nothing.
     */
    Path traceFile() {
        return traceDir == null ? null
                : traceDir.resolve((ours ? "ours" : "node") + "-" + lastTag() + "-" + receiver.pid() + ".txt");
    }

    /** Sends at {@code rate} for {@code seconds} and returns the receiver's percentiles, clock corrected. */
    Measured run(int rate, double seconds) throws IOException, InterruptedException {
        runs++;
        String tag = lastTag();
        sender.tell("SEND " + tag + " " + rate + " " + seconds);
        String[] sent = sender.await("SENT " + tag, (long) (seconds * 1000) + 120_000).split(" ");
        receiver.tell("REPORT " + tag + " " + sent[0] + " 10000");
        String[] r = receiver.await("RESULT " + tag, 60_000).trim().split(" ");
        double shift = correctionNanos / 1e6;
        return new Measured(Integer.parseInt(sent[0]), Integer.parseInt(r[0]), Double.parseDouble(r[1]) - shift,
                Double.parseDouble(r[2]) - shift, Double.parseDouble(r[3]) - shift);
    }

    /**
     * Returns the processes' ids: the sender's, the receiver's (the same one in the one-process layout), then
     * {@code server}'s.
     */
    long[] pids(ServerUnderTest server) {
        return new long[] {sender.pid(), receiver.pid(), server.pid()};
    }

    /** Returns the counts of {@link #pids} now. */
    static ProcessCounters[] counters(long[] pids) {
        ProcessCounters[] all = new ProcessCounters[pids.length];
        for (int i = 0; i < pids.length; i++) {
            all[i] = ProcessCounters.of(pids[i]);
        }
        return all;
    }

    /**
     * Returns the bytes our JVMs of {@link #pids} allocated so far, in its order (all -1 for Node, or where a JVM
     * could not be attached).
     */
    long[] allocated(long[] pids) {
        long[] bytes = new long[pids.length];
        java.util.Arrays.fill(bytes, -1);
        if (!ours) {
            return bytes;
        }
        if (allocations == null) {
            allocations = new JvmAllocation[pids.length];
            for (int i = 0; i < pids.length; i++) {
                allocations[i] = i == 1 && !twoProcesses ? allocations[0] : JvmAllocation.attach(pids[i]);
            }
        }
        for (int i = 0; i < pids.length; i++) {
            bytes[i] = allocations[i].total();
        }
        return bytes;
    }

    /** Returns the bytes each of our JVMs allocated so far by thread name, in {@link #pids}'s order (diagnosis). */
    List<Map<String, Long>> allocatedByThread() {
        List<Map<String, Long>> all = new ArrayList<>();
        if (allocations != null) {
            for (JvmAllocation a : allocations) {
                all.add(a.byThread());
            }
        }
        return all;
    }

    /**
     * Returns the wake-ups (voluntary context switches), CPU µs and, for ours, the KB allocated (1,000 bytes) per
     * message delivered of sender, server and receiver since {@code before} and {@code allocatedBefore} (from
     * {@link #allocated}): "wake-ups 2.1 / 3.0 / 4.2, CPU µs 90 / 80 / 120, allocated 4.1 KB / 9.0 KB / 3.2 KB"
     * (the one-process layout's process once, as "pair").
     */
    String countsSince(long[] pids, ProcessCounters[] before, long[] allocatedBefore, int messages) {
        ProcessCounters[] now = counters(pids);
        long[] allocatedNow = allocated(pids);
        ProcessCounters s = now[0].since(before[0]);
        ProcessCounters r = now[1].since(before[1]);
        ProcessCounters v = now[2].since(before[2]);
        String[] kb = new String[pids.length];
        for (int i = 0; i < pids.length; i++) {
            kb[i] = allocatedBefore[i] < 0 || allocatedNow[i] < 0 ? "-"
                    : JvmAllocation.perMessage(allocatedNow[i] - allocatedBefore[i], messages);
        }
        String allocated = ours ? ", allocated " + inCountsOrder(kb, twoProcesses) : "";
        if (!twoProcesses) {
            return String.format(java.util.Locale.ROOT, "wake-ups %.2f (pair) / %.2f (server), CPU µs %.0f / %.0f",
                    s.wakeUpsPer(messages), v.wakeUpsPer(messages), s.cpuMicrosPer(messages),
                    v.cpuMicrosPer(messages)) + allocated;
        }
        return String.format(java.util.Locale.ROOT, "wake-ups %.2f / %.2f / %.2f, CPU µs %.0f / %.0f / %.0f",
                s.wakeUpsPer(messages), v.wakeUpsPer(messages), r.wakeUpsPer(messages), s.cpuMicrosPer(messages),
                v.cpuMicrosPer(messages), r.cpuMicrosPer(messages)) + allocated;
    }

    /**
     * Joins figures given in {@link #pids}'s order (sender, receiver, server) in the order the counts print them:
     * "sender / server / receiver", or "pair / server" in the one-process layout (its peer is both).
     */
    static String inCountsOrder(String[] byPid, boolean twoProcesses) {
        return twoProcesses ? byPid[0] + " / " + byPid[2] + " / " + byPid[1] : byPid[0] + " / " + byPid[2];
    }

    /** Returns {offset of the peer's clock to this JVM's nanoTime, the round trip it was read within}, ns. */
    private static long[] offset(ChildProcess peer) throws IOException, InterruptedException {
        long best = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 20; i++) {
            long before = System.nanoTime();
            peer.tell("CLOCK");
            long theirs = Long.parseLong(peer.await("CLOCK", 10_000));
            long after = System.nanoTime();
            if (after - before < best) {
                best = after - before;
                offset = theirs - (before + after) / 2;
            }
        }
        return new long[] {offset, best};
    }

    /** Returns the peers' collector logs' ends now (ours; empty for Node). */
    long[] gcMarks() {
        return gcLogs.stream().mapToLong(GcLog::mark).toArray();
    }

    /** Returns the pauses of each peer JVM since {@code marks}, as "sender: ...; receiver: ..." ("-" for Node). */
    String pausesSince(long[] marks) {
        if (gcLogs.isEmpty()) {
            return "-";
        }
        List<String> all = new ArrayList<>();
        String[] names = gcLogs.size() == 2 ? new String[] {"sender", "receiver"} : new String[] {"pair"};
        for (int i = 0; i < gcLogs.size(); i++) {
            all.add(names[i] + " " + gcLogs.get(i).pausesSince(marks[i]));
        }
        return String.join("; ", all);
    }

    @Override
    public void close() {
        if (allocations != null) {
            for (int i = 0; i < allocations.length; i++) {
                if (i != 1 || twoProcesses) {
                    allocations[i].close();
                }
            }
        }
        sender.close();
        if (receiver != sender) {
            receiver.close();
        }
    }

    static String describe(boolean twoProcesses) {
        return twoProcesses ? "two processes" : "one process";
    }

    static String num(double ms) {
        return Double.isNaN(ms) ? "-" : Report.num(ms, ms < 10 ? 2 : 1);
    }
}
