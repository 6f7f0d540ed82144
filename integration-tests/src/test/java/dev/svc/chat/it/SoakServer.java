package dev.svc.chat.it;

import dev.svc.chat.reference.Main;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's reference server: {@code Main} in a child JVM on its SQLite data directory, its output written to a log
 * file line by line (never kept in the soak's memory, whose heap is measured), with the lines that report an error
 * counted and the first few kept.
 */
final class SoakServer implements AutoCloseable {
  private static final String LISTENING = "svc reference server listening on http://127.0.0.1:";

  private final Process process;
  private final CompletableFuture<Integer> port = new CompletableFuture<>();
  private final AtomicLong errorLines = new AtomicLong();
  private final List<String> firstErrors = new ArrayList<>();

  SoakServer(Path dataDir, Path log, String apiKey, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "--port", "0", "--data-dir", dataDir.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("SVC_API_KEY", apiKey);
    process = builder.start();
    Files.createDirectories(log.getParent());
    PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
    Thread reader = new Thread(() -> {
      try (out; BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String l; (l = in.readLine()) != null; ) {
          out.println(l);
          if (l.startsWith(LISTENING)) port.complete(Integer.parseInt(l.substring(LISTENING.length(), l.indexOf("/v1"))));
          if (isError(l)) {
            errorLines.incrementAndGet();
            synchronized (firstErrors) {
              if (firstErrors.size() < 5) firstErrors.add(l);
            }
          }
        }
      } catch (IOException ignored) {
        // the server is gone
      }
      port.completeExceptionally(new IllegalStateException("the server ended before it listened; see " + log));
    }, "soak-server-output");
    reader.setDaemon(true);
    reader.start();
    try {
      port.get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      process.destroyForcibly();
      throw e;
    }
  }

  /** Whether a log line reports an error: slf4j-simple's ERROR level, or an exception no one caught. */
  static boolean isError(String line) {
    return line.contains(" ERROR ") || line.startsWith("ERROR") || line.contains("Exception in thread");
  }

  int port() {
    return port.join();
  }

  long pid() {
    return process.pid();
  }

  long errorLines() {
    return errorLines.get();
  }

  List<String> firstErrors() {
    synchronized (firstErrors) {
      return List.copyOf(firstErrors);
    }
  }

  /** Stops it (SIGTERM, its shutdown hook closes the server), forcibly after 30 s. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
