package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.Report;
import dev.svc.chat.bench.support.Tcpdump;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The per-stage breakdown of {@link LatencyLayoutsBenchmark}'s measured rounds ({@code --stages yes|no}): a
 * directory in the JVM's temp dir for the receivers' traces and the capture, a {@link Tcpdump} on loopback
 * filtered to the two servers' ports from {@link #begin} to {@link #end}, the clock offset that puts the
 * capture on CLOCK_MONOTONIC, and at the end {@link LatencyStages} and {@link LatencyStagesTable} for the
 * section. {@link #close()} stops tcpdump if it still runs and deletes the directory.
 */
final class StageCapture implements AutoCloseable {
    /** Null when the stages are not measured. */
    private final Path dir;
    /** Why the stages are not measured (null while they are). */
    private String without;
    private final List<LatencyStages.Run> runs = new ArrayList<>();
    private Tcpdump tcpdump;
    private long offsetBefore;
    private long offsetAfter;
    private String tcpdumpCounts = "";

    private StageCapture(Path dir, String without) {
        this.dir = dir;
        this.without = without;
    }

    /**
     * {@code --stages yes|no}; without it, yes when tcpdump can capture on loopback here. Fails when asked for
     * yes and it cannot.
     */
    static StageCapture open(String[] args) throws IOException {
        String asked = Report.option(args, "--stages", null);
        if ("no".equals(asked)) {
            return new StageCapture(null, "not asked for (`--stages no`)");
        }
        if (asked != null && !asked.equals("yes")) {
            throw new IllegalArgumentException("--stages yes|no, not " + asked);
        }
        String cannot = Tcpdump.cannotCapture();
        if (cannot != null) {
            if (asked != null) {
                throw new IllegalStateException("--stages yes, but " + cannot);
            }
            return new StageCapture(null, cannot);
        }
        return new StageCapture(Files.createTempDirectory("latency-stages"), null);
    }

    /** Where the receivers write their traces, or null when the stages are not measured. */
    Path traceDir() {
        return without == null ? dir : null;
    }

    /** Starts the capture of both servers' connections (the measured rounds follow). */
    void begin(int oursPort, int nodePort) throws InterruptedException {
        if (without != null) {
            return;
        }
        offsetBefore = realtimeMinusMonotonic();
        try {
            tcpdump = Tcpdump.start("tcp and (port " + oursPort + " or port " + nodePort + ")",
                    dir.resolve("loopback.pcap"));
        } catch (IOException e) {
            without = "tcpdump did not start: " + e.getMessage();
        }
    }

    /** Notes the measured run {@code devices} just ran, at {@code rate} in {@code round}, on {@code port}. */
    void ran(int round, int rate, LatencyDevices devices, int serverPort) {
        if (without == null) {
            runs.add(new LatencyStages.Run(round, rate, devices.twoProcesses, devices.ours, devices.lastTag(),
                    devices.traceFile(), serverPort));
        }
    }

    /** Stops the capture once it holds every packet (the measured rounds are over). */
    void end() throws InterruptedException {
        if (tcpdump != null) {
            tcpdumpCounts = tcpdump.stop();
            tcpdump = null;
            offsetAfter = realtimeMinusMonotonic();
        }
    }

    /** Reads the capture and the traces: the section's paragraph on the stages and their table, or why none. */
    LatencyStagesTable.Section section() {
        if (without != null) {
            return new LatencyStagesTable.Section("Per stage: not measured, " + without + ".", List.of());
        }
        LatencyStages.Result result;
        try {
            result = LatencyStages.match(dir.resolve("loopback.pcap"), offsetBefore, runs);
        } catch (IOException | RuntimeException e) {
            return new LatencyStagesTable.Section("Per stage: not measured, the capture could not be read: " + e
                    + ".", List.of());
        }
        return new LatencyStagesTable.Section("Per stage, from a tcpdump capture of loopback (the servers' ports)"
                + " during the measured rounds, whose cost they carried: each message's latency splits into sender"
                + " (its stamp → the capture of the sender's WebSocket frame carrying its text), server (→ the "
                + "server's frame carrying it to the receiver's connection) and receiver (→ the receiver's clock at"
                + " the event), ms. The capture's realtime clock is put on CLOCK_MONOTONIC by their offset (the "
                + "least of 20 readings; it moved " + Report.num((offsetAfter - offsetBefore) / 1e3, 1) + " µs by "
                + "the end). Matched: traced by the receiver, both frames captured; the slowest 1 %: the messages "
                + "whose total reached the run's p99, with each stage's median and how many had it as their "
                + "largest. " + tcpdumpCounts + "; read: " + result.counts().describe() + ".", result.runs());
    }

    /**
     * Returns CLOCK_REALTIME − CLOCK_MONOTONIC (ns), the least of 20 readings: read monotonic first, each reading
     * is the offset plus the time between the two reads, so the least is the nearest.
     */
    static long realtimeMinusMonotonic() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            long monotonic = System.nanoTime();
            Instant now = Instant.now();
            best = Math.min(best, now.getEpochSecond() * 1_000_000_000L + now.getNano() - monotonic);
        }
        return best;
    }

    @Override
    public void close() throws IOException {
        if (tcpdump != null) {
            tcpdump.close();
            tcpdump = null;
        }
        if (dir != null) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
