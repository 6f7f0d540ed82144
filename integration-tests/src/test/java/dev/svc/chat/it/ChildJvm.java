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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A main class run in a child JVM on the test classpath, for what only a separate process can show. */
public final class ChildJvm {
  private final Process process;
  private final Thread reader;
  private final StringBuilder output = new StringBuilder();
  private final CompletableFuture<Void> seen = new CompletableFuture<>();
  private volatile String matched;

  private ChildJvm(Class<?> mainClass, String line, String... args) throws IOException {
    this(mainClass, line::equals, List.of(), Map.of(), args);
  }

  private ChildJvm(Class<?> mainClass, Predicate<String> wanted, List<String> jvmOptions, Map<String, String> env,
      String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(Arrays.asList("-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(Arrays.asList(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(env);
    process = builder.start();
    reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String l; (l = in.readLine()) != null; ) {
          synchronized (output) {
            output.append(l).append('\n');
          }
          if (matched == null && wanted.test(l)) {
            matched = l;
            seen.complete(null);
          }
        }
      } catch (IOException ignored) {
        // the child is gone
      }
      seen.complete(null);
    }, "child-output");
    reader.setDaemon(true);
    reader.start();
  }

  private String output() {
    synchronized (output) {
      return output.toString();
    }
  }

  /** Waits until the child printed {@code line}; fails, with its output, if it ended or 60 s passed first. */
  private void awaitLine(String line) throws Exception {
    seen.get(60, TimeUnit.SECONDS);
    assertTrue(output().contains(line + "\n"), "the child never printed '" + line + "'; output:\n" + output());
  }

  /**
   * Runs {@code mainClass} with {@code args} and returns the running process once it printed {@code line};
   * the caller ends it (with {@code destroyForcibly()} for a kill -9).
   */
  public static Process startUntil(Class<?> mainClass, String line, String... args) throws Exception {
    ChildJvm child = new ChildJvm(mainClass, line, args);
    try {
      child.awaitLine(line);
      assertTrue(child.process.isAlive(), "the child ended after '" + line + "'; output:\n" + child.output());
      return child.process;
    } catch (Exception | Error e) {
      child.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw e;
    }
  }

  /**
   * A running child and the first line it printed that starts with the prefix it was awaited for; {@code output}
   * returns everything it printed so far.
   */
  public record Started(Process process, String line, java.util.function.Supplier<String> output) {}

  /**
   * Runs {@code mainClass} with {@code args} and returns it once it printed a line starting with {@code prefix}
   * (for example a server on port 0 telling its URL); the caller ends it.
   */
  public static Started startUntilPrefix(Class<?> mainClass, String prefix, String... args) throws Exception {
    return startUntilPrefix(mainClass, List.of(), Map.of(), prefix, args);
  }

  /** As {@link #startUntilPrefix(Class, String, String...)}, with these JVM options and environment variables. */
  public static Started startUntilPrefix(Class<?> mainClass, List<String> jvmOptions, Map<String, String> env,
      String prefix, String... args) throws Exception {
    ChildJvm child = new ChildJvm(mainClass, (Predicate<String>) l -> l.startsWith(prefix), jvmOptions, env, args);
    try {
      child.seen.get(60, TimeUnit.SECONDS);
      assertTrue(child.matched != null, "the child never printed '" + prefix + "…'; output:\n" + child.output());
      assertTrue(child.process.isAlive(), "the child ended after '" + child.matched + "'; output:\n" + child.output());
      return new Started(child.process, child.matched, child::output);
    } catch (Exception | Error e) {
      child.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw e;
    }
  }

  /**
   * Runs {@code mainClass} with {@code args} until it prints {@code line}, then asserts that the JVM exits
   * with status 0 within 5 s: no thread it left behind keeps it alive.
   */
  public static void assertExitsAfter(Class<?> mainClass, String line, String... args) throws Exception {
    ChildJvm child = new ChildJvm(mainClass, line, args);
    try {
      child.awaitLine(line);
      // a leaked non-daemon thread (OkHttp's dispatcher keeps idle ones for 60 s, a forgotten executor
      // forever) would keep the JVM alive well past this
      boolean exited = child.process.waitFor(5, TimeUnit.SECONDS);
      child.reader.join(5000);
      assertTrue(exited, "child JVM still running 5 s after '" + line + "'; output:\n" + child.output());
      assertEquals(0, child.process.exitValue(), child.output());
    } finally {
      child.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
