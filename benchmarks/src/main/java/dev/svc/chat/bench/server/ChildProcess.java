package dev.svc.chat.bench.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.stream.Stream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child process of a benchmark (a Node script or a server JVM) whose standard output is read line by
 * line; {@link #close()} ends it (closing its stdin first, then destroying it).
 */
final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final String name;

    private ChildProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process ended
            }
        }, name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code command}; stderr goes to this process's stderr. */
    static ChildProcess start(String name, List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(env);
        return new ChildProcess(name, builder.start());
    }

    /** Starts {@code node <script> args...} from the Node peers' directory (SVC_BENCH_NODE_DIR). */
    static ChildProcess node(String script, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("node", nodeDir().resolve(script).toString()));
        command.addAll(List.of(args));
        return start(script, command, Map.of());
    }

    static Path nodeDir() {
        String dir = System.getenv("SVC_BENCH_NODE_DIR");
        return Paths.get(dir != null ? dir : "benchmarks/node").toAbsolutePath();
    }

    /** Waits for a line starting with {@code prefix} and returns the rest; fails on "ERROR", exit or deadline. */
    String await(String prefix, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = lines.poll(Math.max(0, Math.min(left, TimeUnit.MILLISECONDS.toNanos(200))),
                    TimeUnit.NANOSECONDS);
            if (line != null) {
                if (line.startsWith(prefix)) {
                    return line.substring(prefix.length()).trim();
                }
                if (line.startsWith("ERROR")) {
                    throw new IllegalStateException(name + ": " + line);
                }
                continue;
            }
            if (!process.isAlive() && lines.isEmpty()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " before " + prefix);
            }
            if (left <= 0) {
                throw new IllegalStateException(name + ": no " + prefix + " within " + timeoutMillis + " ms");
            }
        }
    }

    /** Returns the process id. */
    long pid() {
        return process.pid();
    }

    /**
     * Returns the CPU time this process used so far (user and system, in seconds, from /proc on Linux with the
     * usual 100 clock ticks a second), or NaN where there is no /proc.
     */
    double cpuSeconds() {
        try {
            String stat = Files.readString(Paths.get("/proc", String.valueOf(process.pid()), "stat"));
            // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * Returns the CPU time this process's threads whose name starts with {@code prefix} used so far (seconds,
     * from /proc/PID/task on Linux; a thread that ended is not counted), or NaN where there is no /proc. A JVM's
     * JIT compiler threads are "C1 CompilerThre" and "C2 CompilerThre" (the kernel keeps 15 characters).
     */
    double threadsCpuSeconds(String prefix) {
        return threadsCpuSeconds(process.pid(), prefix);
    }

    /** Returns the CPU time so far of JVM {@code pid}'s JIT compiler threads (C1 and C2), in seconds. */
    static double jitCpuSeconds(long pid) {
        return threadsCpuSeconds(pid, "C1 CompilerThre") + threadsCpuSeconds(pid, "C2 CompilerThre");
    }

    /**
     * Returns the CPU time so far of process {@code pid}'s threads whose names start with {@code prefix}, in
     * seconds (NaN where /proc cannot be read).
     */
    static double threadsCpuSeconds(long pid, String prefix) {
        try (Stream<Path> tasks =
                     Files.list(Paths.get("/proc", String.valueOf(pid), "task"))) {
            long ticks = 0;
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException ended) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (name.startsWith(prefix)) {
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                }
            }
            return ticks / 100.0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Returns this process's peak resident memory so far (VmHWM, MiB, from /proc), or -1 where there is none. */
    long peakMemoryMiB() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc", String.valueOf(process.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc
        }
        return -1;
    }

    /** Writes one line to the child's stdin. */
    void tell(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    /** Ends the process at once (SIGTERM: a JVM still runs its shutdown hooks and dumps its recording). */
    void terminate() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
