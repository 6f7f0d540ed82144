package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A {@link KillNineAliceMain} running in a child JVM: its output, the lines it printed, and the count of its
 * progress lines (those starting with {@code +}), which the test waits on to pick a kill point.
 */
final class KillNineChild {
  private final Process process;
  private final StringBuilder output = new StringBuilder();
  private final Set<String> lines = new HashSet<>();
  private int progress;

  private KillNineChild(List<String> args) throws IOException {
    List<String> command = new ArrayList<>(Arrays.asList(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), KillNineAliceMain.class.getName()));
    command.addAll(args);
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Thread reader = new Thread(this::read, "kill-nine-child-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts the child with these arguments ({@link KillNineAliceMain}'s). */
  static KillNineChild start(String... args) throws IOException {
    return new KillNineChild(Arrays.asList(args));
  }

  private void read() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String l; (l = in.readLine()) != null; ) {
        synchronized (this) {
          output.append(l).append('\n');
          if (l.startsWith("+")) progress++;
          else lines.add(l);
          notifyAll();
        }
      }
    } catch (IOException ignored) {
      // the child is gone
    }
    synchronized (this) {
      lines.add("<end>");
      notifyAll();
    }
  }

  /** Returns the number of progress lines printed so far. */
  synchronized int progress() {
    return progress;
  }

  /** Returns everything the child printed so far. */
  synchronized String output() {
    return output.toString();
  }

  /** Waits until the child printed {@code line}; fails with its output if it ended or the deadline passed first. */
  synchronized void awaitLine(String line, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!lines.contains(line)) {
      if (lines.contains("<end>")) fail("the child ended before '" + line + "'; output:\n" + output);
      long left = deadline - System.nanoTime();
      if (left <= 0) fail("the child never printed '" + line + "' within " + timeout + "; output:\n" + output);
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /**
   * Waits until the child printed more than {@code count} progress lines, or {@code timeout} passed.
   *
   * @return whether it did; false also when the child ended
   */
  synchronized boolean awaitProgressAbove(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (progress <= count) {
      long left = deadline - System.nanoTime();
      if (left <= 0 || lines.contains("<end>")) return false;
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  /** Asserts that the child is still running (it never exits by itself in the run mode). */
  void assertAlive() {
    assertTrue(process.isAlive(), "the child ended by itself; output:\n" + output());
  }

  /** Kills the child with SIGKILL (no shutdown hook, no close) and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the child survived destroyForcibly");
  }

  /** Writes a line to the child's standard input. */
  void tell(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** Waits until the child exited by itself, and returns its status. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      fail("the child did not exit within " + timeout + "; output:\n" + output());
    }
    return process.exitValue();
  }
}
