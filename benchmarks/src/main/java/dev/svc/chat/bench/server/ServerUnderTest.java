package dev.svc.chat.bench.server;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.svc.chat.bench.support.EndsWithParent;
import dev.svc.chat.bench.support.Report;

/**
 * One of the two servers a benchmark drives, in a process of its own: our reference server (a child JVM
 * running its {@code Main}, send rate limit lifted) or the official Node socket.io server
 * ({@code node/fanout-server.js}).
 */
final class ServerUnderTest implements AutoCloseable {
    static final String API_KEY = "sk_test_bench_server_key";

    final boolean ours;
    final int port;
    /** Whether a benchmark already warmed this server up (its first room does). */
    boolean warmedUp;
    private final ChildProcess process;

    private ServerUnderTest(boolean ours, int port, ChildProcess process) {
        this.ours = ours;
        this.port = port;
        this.process = process;
    }

    /**
     * Starts our reference server as a benchmark's options ask: {@code --server-args "..."} added to its command
     * line, {@code --server-jvm-args "..."} to its JVM's options (say {@code -Xlog:gc}), and with {@code --jfr DIR}
     * a flight recording {@code DIR/<recording>} ({@code --jfr-settings} names its settings: {@code profile}
     * unless given, or a .jfc file, say one that samples every millisecond).
     */
    static ServerUnderTest ours(String[] benchmarkArgs, String recording) throws IOException, InterruptedException {
        return ours(benchmarkArgs, recording, List.of());
    }

    /** As {@link #ours(String[], String)}, with {@code jvmArgs} too on the server JVM's command line. */
    static ServerUnderTest ours(String[] benchmarkArgs, String recording, List<String> jvmArgs)
            throws IOException, InterruptedException {
        String serverArgs = Report.option(benchmarkArgs, "--server-args", "").trim();
        String asked = Report.option(benchmarkArgs, "--server-jvm-args", "").trim();
        String jfr = Report.option(benchmarkArgs, "--jfr", null);
        String settings = Report.option(benchmarkArgs, "--jfr-settings", "profile");
        List<String> jvm = new ArrayList<>(jvmArgs);
        if (!asked.isEmpty()) {
            jvm.addAll(List.of(asked.split("\\s+")));
        }
        if (jfr != null) {
            // Deep stacks: Jetty's request handling alone is over 64 frames, JFR's default depth.
            jvm.add("-XX:FlightRecorderOptions:stackdepth=256");
            jvm.add("-XX:StartFlightRecording=filename=" + Paths.get(jfr, recording) + ",settings=" + settings);
        }
        return ours(serverArgs.isEmpty() ? List.of() : List.of(serverArgs.split("\\s+")), jvm);
    }

    /**
     * Starts our reference server in a child JVM with {@code serverArgs} added to its command line and
     * {@code jvmArgs} to its JVM's options.
     */
    static ServerUnderTest ours(List<String> serverArgs, List<String> jvmArgs)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xss512k");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), EndsWithParent.class.getName(),
                "dev.svc.chat.reference.Main",
                "--port", "0", "--send-rate", "1000000", "--send-burst", "1000000"));
        command.addAll(serverArgs);
        ChildProcess process = ChildProcess.start("reference-server", command, Map.of("SVC_API_KEY", API_KEY));
        // it binds a free port itself and tells it: "... listening on http://127.0.0.1:PORT/v1"
        String url = process.await("svc reference server listening on", 60_000);
        int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1, url.indexOf("/v1")));
        return new ServerUnderTest(true, port, process);
    }

    /** Starts the official Node socket.io server. */
    static ServerUnderTest node() throws IOException, InterruptedException {
        ChildProcess process = ChildProcess.node("fanout-server.js");
        int port = Integer.parseInt(process.await("LISTENING", 30_000));
        return new ServerUnderTest(false, port, process);
    }

    /** Returns the server process's CPU time so far, in seconds (NaN where it cannot be read). */
    double cpuSeconds() {
        return process.cpuSeconds();
    }

    /** Returns the server process's id (for its {@link dev.svc.chat.bench.support.ProcessCounters}). */
    long pid() {
        return process.pid();
    }

    /**
     * Returns the CPU time the server's JIT compiler threads used so far, in seconds: ours only (a JVM's C1 and
     * C2 threads); NaN for Node, whose compiler threads have no name of their own.
     */
    double jitCpuSeconds() {
        return ours ? ChildProcess.jitCpuSeconds(process.pid()) : Double.NaN;
    }

    /** Returns the server process's peak resident memory so far, in MiB (-1 where it cannot be read). */
    long peakMemoryMiB() {
        return process.peakMemoryMiB();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        if (ours) {
            process.terminate();
        } else {
            process.close();
        }
    }
}
