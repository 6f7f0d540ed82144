package dev.svc.chat.reference;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference server's {@link Main} in a child JVM on this test's class path, on a free port of 127.0.0.1.
 * {@link #kill()} is a {@code kill -9}; {@link #close()} stops it gracefully (and forcibly if it hangs).
 */
final class ServerProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/v1");

    private final Process process;
    private final int port;
    private final BlockingQueue<String> output;
    private final List<String> startLines = new ArrayList<>(); // what was read before output() drained

    private ServerProcess(Process process, int port, BlockingQueue<String> output) {
        this.process = process;
        this.port = port;
        this.output = output;
    }

    /** Starts {@code Main} with {@code args} (plus {@code --port 0}) and the dev tenant's key {@code apiKey}. */
    static ServerProcess start(String apiKey, String... args) {
        return start(java.util.Map.of("SVC_API_KEY", apiKey), args);
    }

    /** Starts {@code Main} with {@code args} (plus {@code --port 0}) and these environment variables. */
    static ServerProcess start(java.util.Map<String, String> env, String... args) {
        return start(List.of(), env, args);
    }

    /** Starts {@code Main} with these JVM options (e.g. {@code -D} log levels), environment and arguments. */
    static ServerProcess start(List<String> jvmOptions, java.util.Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "--port", "0"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process died; whoever waits for a line times out or sees the exit
            }
        }, "server-process-output");
        reader.setDaemon(true);
        reader.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> seen = new ArrayList<>();
        try {
            while (System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line == null) {
                    if (!process.isAlive()) {
                        break;
                    }
                    continue;
                }
                seen.add(line);
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    ServerProcess started = new ServerProcess(process, Integer.parseInt(m.group(1)), lines);
                    started.startLines.addAll(seen);
                    return started;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        throw new AssertionError("the server did not start: " + seen);
    }

    /** Returns every line it printed so far (stdout and stderr), from its first. */
    synchronized List<String> output() {
        output.drainTo(startLines);
        return new ArrayList<>(startLines);
    }

    /** Returns the port it listens on. */
    int port() {
        return port;
    }


    /** Kills it as {@code kill -9} does and waits for it to be gone. */
    void kill() {
        process.destroyForcibly();
        waitGone();
    }

    /** Stops it with SIGTERM (its shutdown hook closes the server), forcibly after 20 s. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        waitGone();
    }

    private void waitGone() {
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                throw new AssertionError("the server process did not exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
