package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A main class run in a child JVM on the test classpath, for what only a separate process can show. */
public final class ChildJvm {
  private ChildJvm() {
  }

  /**
   * Runs {@code mainClass} with {@code args} until it prints {@code line}, then asserts that the JVM exits
   * with status 0 within 5 s: no thread it left behind keeps it alive.
   */
  public static void assertExitsAfter(Class<?> mainClass, String line, String... args) throws Exception {
    List<String> command = new ArrayList<>(Arrays.asList(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(Arrays.asList(args));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      StringBuilder output = new StringBuilder();
      CompletableFuture<Void> seen = new CompletableFuture<>();
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8))) {
          for (String l; (l = in.readLine()) != null; ) {
            synchronized (output) {
              output.append(l).append('\n');
            }
            if (l.equals(line)) seen.complete(null);
          }
        } catch (IOException ignored) {
          // the child is gone
        }
        seen.complete(null);
      }, "child-output");
      reader.setDaemon(true);
      reader.start();
      seen.get(60, TimeUnit.SECONDS);
      // a leaked non-daemon thread (OkHttp's dispatcher keeps idle ones for 60 s, a forgotten executor
      // forever) would keep the JVM alive well past this
      boolean exited = child.waitFor(5, TimeUnit.SECONDS);
      reader.join(5000);
      String out;
      synchronized (output) {
        out = output.toString();
      }
      assertTrue(out.contains(line), out);
      assertTrue(exited, "child JVM still running 5 s after '" + line + "'; output:\n" + out);
      assertEquals(0, child.exitValue(), out);
    } finally {
      child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
