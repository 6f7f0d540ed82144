package dev.svc.chat.bench.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code tcpdump} capturing loopback into a classic pcap file with nanosecond timestamps, for
 * {@link LoopbackCapture} to read. {@link #stop()} ends it once it has every packet the kernel handed it;
 * {@link #close()} ends it in any case.
 *
 * <p>The kernel hands tcpdump its packets in blocks, a block once it is full or a second after it opened; a
 * tcpdump ended before that loses the block. So {@link #stop()} first asks tcpdump for its counts (SIGUSR1) until
 * it has written as many packets as its filter took in. On loopback the filter takes every packet twice, as it
 * leaves and as it arrives, and libpcap keeps only the arriving one: every packet is in once
 * {@code 2 × captured + dropped ≥ received by filter}.
 */
public final class Tcpdump implements AutoCloseable {
    private static final Pattern COUNTS = Pattern.compile(
            "(\\d+) packets? captured, (\\d+) packets? received by filter, (\\d+) packets? dropped by kernel");
    /** The counts tcpdump prints as it ends, a line each. */
    private static final Pattern FINAL =
            Pattern.compile("(\\d+) packets? (captured|received by filter|dropped by kernel)");
    /** How long {@link #stop()} waits for the last blocks: a few times the kernel's one-second block timeout. */
    private static final long DRAIN_MILLIS = 5_000;

    private final Process process;
    private final BlockingQueue<String> stderr = new LinkedBlockingQueue<>();
    private final Thread reader;

    private Tcpdump(Process process) {
        this.process = process;
        reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    stderr.add(line);
                }
            } catch (IOException ended) {
                // tcpdump ended
            }
        }, "tcpdump-stderr");
        reader.setDaemon(true);
        reader.start();
    }

    /** Returns the tcpdump to run, {@code /usr/bin/tcpdump} or else the first on PATH, or null when none is. */
    static Path binary() {
        Path usual = Paths.get("/usr/bin/tcpdump");
        if (Files.isExecutable(usual)) {
            return usual;
        }
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Paths.get(dir, "tcpdump"))) {
                return Paths.get(dir, "tcpdump");
            }
        }
        return null;
    }

    /**
     * Returns null when this process may capture on loopback (tcpdump opens it and compiles a filter), else why
     * not.
     */
    public static String cannotCapture() {
        Path binary = binary();
        if (binary == null) {
            return "there is no tcpdump (neither /usr/bin/tcpdump nor one on PATH)";
        }
        Path errors = null;
        try {
            errors = Files.createTempFile("tcpdump-probe", ".txt");
            // -d: opens the device (which needs the right to capture), compiles the filter, prints it and ends
            Process probe = new ProcessBuilder(binary.toString(), "-i", "lo", "-d", "tcp")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(errors.toFile()).start();
            if (!probe.waitFor(30, TimeUnit.SECONDS)) {
                probe.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                return binary + " -i lo -d tcp did not end within 30 s";
            }
            String error = Files.readString(errors).trim().replace('\n', ' ');
            return probe.exitValue() == 0 ? null
                    : binary + " cannot capture on lo: " + (error.isEmpty() ? "exit " + probe.exitValue() : error);
        } catch (IOException e) {
            return binary + " cannot be started: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while trying tcpdump";
        } finally {
            if (errors != null) {
                try {
                    Files.deleteIfExists(errors);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }

    /**
     * Starts capturing whole packets on loopback that match {@code filter} into {@code file}, and returns once
     * tcpdump listens.
     */
    public static Tcpdump start(String filter, Path file) throws IOException, InterruptedException {
        Path binary = binary();
        if (binary == null) {
            throw new IOException("there is no tcpdump");
        }
        // -B: 256 MiB of kernel buffer, so that the benchmark's bursts are not dropped; the default snapshot
        // length (262,144 bytes) keeps whole segments, up to loopback's 64 KiB.
        Tcpdump tcpdump = new Tcpdump(new ProcessBuilder(binary.toString(), "-i", "lo", "-n", "-B", "262144",
                "--time-stamp-precision=nano", "-w", file.toString(), filter).redirectOutput(
                ProcessBuilder.Redirect.DISCARD).start());
        try {
            tcpdump.awaitListening();
            return tcpdump;
        } catch (IOException | InterruptedException | RuntimeException e) {
            tcpdump.close();
            throw e;
        }
    }

    private void awaitListening() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<String> said = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            String line = stderr.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                said.add(line);
                if (line.contains("listening on")) {
                    return;
                }
            } else if (!process.isAlive() && stderr.isEmpty()) {
                reader.join(1_000);
                stderr.drainTo(said);
                throw new IOException("tcpdump exited with " + process.exitValue() + ": " + String.join(" ", said));
            }
        }
        throw new IOException("tcpdump did not listen within 30 s: " + String.join(" ", said));
    }

    /**
     * Waits (at most {@link #DRAIN_MILLIS}) until tcpdump has every packet its filter took in, then ends it and
     * returns its final counts, "tcpdump: 1,234 packets captured, 0 dropped by the kernel", with a note when it
     * did not get them all in time.
     */
    public String stop() throws InterruptedException {
        String note = "";
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
        while (true) {
            long[] counts = counts();
            if (counts == null) {
                note = " (its counts could not be read before it ended)";
                break;
            }
            if (2 * counts[0] + counts[2] >= counts[1]) {
                break;
            }
            if (System.nanoTime() > deadline) {
                note = " (it had not written all it received " + DRAIN_MILLIS / 1000 + " s after the rounds)";
                break;
            }
            Thread.sleep(100); // the kernel hands over a block within a second: a poll, not an ordering
        }
        end();
        List<String> last = new ArrayList<>();
        stderr.drainTo(last);
        String captured = "?";
        String dropped = "?";
        for (String line : last) {
            Matcher m = FINAL.matcher(line);
            if (m.matches()) {
                String n = Report.num(Long.parseLong(m.group(1)), 0);
                if (m.group(2).equals("captured")) {
                    captured = n;
                } else if (m.group(2).equals("dropped by kernel")) {
                    dropped = n;
                }
            }
        }
        return "tcpdump: " + captured + " packets captured, " + dropped + " dropped by the kernel" + note;
    }

    /** Returns tcpdump's {captured, received by filter, dropped by kernel} now, or null when it cannot tell. */
    private long[] counts() throws InterruptedException {
        try {
            Process kill = new ProcessBuilder("kill", "-USR1", String.valueOf(process.pid()))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                kill.destroyForcibly();
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            String line = stderr.poll(100, TimeUnit.MILLISECONDS);
            if (line == null) {
                if (!process.isAlive()) {
                    return null;
                }
                continue;
            }
            Matcher m = COUNTS.matcher(line);
            if (m.find()) {
                return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                        Long.parseLong(m.group(3))};
            }
        }
        return null;
    }

    /** Ends tcpdump (SIGTERM: it writes what it holds and its counts) and waits for it and its stderr. */
    private void end() throws InterruptedException {
        // The handle's destroy only signals; Process.destroy would also close stderr before the counts are read.
        process.toHandle().destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        reader.join(5_000);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                end();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
