package dev.svc.chat.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Runs one of the interop scripts in {@code interop/} under Node and reads the JSON lines it prints.
 * The scripts use the official npm socket.io packages, installed by the build from the committed lock.
 */
final class NodeScript implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNode EOF = JSON.createObjectNode().put("event", "<eof>");

  private final Process process;
  private final Writer stdin;
  private final BlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();
  private final Thread reader;

  private NodeScript(Process process) {
    this.process = process;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.reader = new Thread(this::readLines, "node-stdout-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code node interop/<script> <argument>}. */
  static NodeScript start(String script, String argument) throws IOException {
    Path dir = interopDir();
    if (!Files.isDirectory(dir.resolve("node_modules/socket.io"))) {
      throw new IllegalStateException("npm packages missing in " + dir + ": run `npm ci` there (the Maven build does it)");
    }
    ProcessBuilder pb = new ProcessBuilder("node", script, argument)
        .directory(dir.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    return new NodeScript(pb.start());
  }

  static Path interopDir() {
    String dir = System.getProperty("interop.dir");
    return dir != null ? Paths.get(dir) : Paths.get("..", "interop").toAbsolutePath().normalize();
  }

  private void readLines() {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        try {
          lines.add(JSON.readTree(line));
        } catch (IOException notJson) {
          lines.add(JSON.createObjectNode().put("event", "<text>").put("text", line));
        }
      }
    } catch (IOException ignored) {
      // The process was destroyed.
    } finally {
      lines.add(EOF);
    }
  }

  /** Returns the next line whose {@code event} is {@code event}, skipping others, or fails at the deadline. */
  JsonNode await(String event, Duration timeout) throws InterruptedException {
    return await(n -> event.equals(n.path("event").asText()), event, timeout);
  }

  /** Returns the next line that matches, skipping others, or fails at the deadline. */
  JsonNode await(Predicate<JsonNode> matcher, String what, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      JsonNode next = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
      if (next == null || next == EOF) {
        if (next == EOF) lines.add(EOF);
        throw new AssertionError("no '" + what + "' from node within " + timeout + "; saw " + seen);
      }
      seen.add(next.toString());
      if (matcher.test(next)) return next;
    }
  }

  /** Returns the lines received so far and not yet consumed, without waiting. */
  List<JsonNode> drain() {
    List<JsonNode> out = new ArrayList<>();
    lines.drainTo(out);
    out.remove(EOF);
    return out;
  }

  /** Writes one command line to the script's standard input. */
  void send(String command) throws IOException {
    stdin.write(command + "\n");
    stdin.flush();
  }

  @Override
  public void close() throws InterruptedException {
    try {
      stdin.close();
    } catch (IOException ignored) {
      // Already gone.
    }
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
    reader.join(Duration.ofSeconds(5).toMillis());
  }
}
