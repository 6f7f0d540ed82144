package dev.svc.chat.bench.server;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    private final ChildProcess process;

    private ServerUnderTest(boolean ours, int port, ChildProcess process) {
        this.ours = ours;
        this.port = port;
        this.process = process;
    }

    /**
     * Starts our reference server as a benchmark's options ask: {@code --server-args "..."} added to its command
     * line, and with {@code --jfr DIR} a flight recording {@code DIR/<recording>}.
     */
    static ServerUnderTest ours(String[] benchmarkArgs, String recording) throws IOException, InterruptedException {
        return ours(benchmarkArgs, recording, List.of());
    }

    /** As {@link #ours(String[], String)}, with {@code jvmArgs} too on the server JVM's command line. */
    static ServerUnderTest ours(String[] benchmarkArgs, String recording, List<String> jvmArgs)
            throws IOException, InterruptedException {
        String serverArgs = Report.option(benchmarkArgs, "--server-args", "").trim();
        String jfr = Report.option(benchmarkArgs, "--jfr", null);
        String asked = Report.option(benchmarkArgs, "--server-jvm-args", "").trim();
        List<String> jvm = new ArrayList<>(jvmArgs);
        if (!asked.isEmpty()) {
            jvm.addAll(List.of(asked.split("\\s+")));
        }
        return ours(serverArgs.isEmpty() ? List.of() : List.of(serverArgs.split("\\s+")),
                jfr == null ? null : Paths.get(jfr, recording).toString(), jvm);
    }

    /**
     * Starts our reference server in a child JVM with {@code serverArgs} added to its command line, and
     * {@code jfr} (a file, or null) as a flight recording of the whole run.
     */
    static ServerUnderTest ours(List<String> serverArgs, String jfr) throws IOException, InterruptedException {
        return ours(serverArgs, jfr, List.of());
    }

    /** As {@link #ours(List, String)}, with {@code jvmArgs} (such as {@code -Xlog:gc}) on the JVM's command line. */
    static ServerUnderTest ours(List<String> serverArgs, String jfr, List<String> jvmArgs)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xss512k");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.addAll(jvmArgs);
        if (jfr != null) {
            command.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.svc.chat.reference.Main",
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
