package dev.svc.chat.it;

import dev.svc.chat.reference.Main;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The reference server's {@code Main} in a child JVM on this test's class path, on a free port it picks itself
 * ({@code --port 0}) and tells. {@link #kill()} is a {@code kill -9} ({@code destroyForcibly} sends SIGKILL on
 * Linux and macOS): no shutdown hook runs, nothing is flushed.
 */
final class ServerChild implements AutoCloseable {
  private static final String LISTENING = "svc reference server listening on http://127.0.0.1:";
  // a small heap and C1 only: it starts sooner on a busy machine, and the tests' load is light
  private static final List<String> JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private final ChildJvm.Started started;
  private final int port;

  private ServerChild(ChildJvm.Started started) {
    this.started = started;
    String line = started.line();
    this.port = Integer.parseInt(line.substring(LISTENING.length(), line.indexOf("/v1")));
  }

  /**
   * Starts {@code Main} with {@code --port 0} and {@code args}, and waits until it listens; {@code apiKey} is the dev
   * tenant's key (null: the one its database holds, or a generated one).
   */
  static ServerChild start(String apiKey, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("--port", "0"));
    all.addAll(List.of(args));
    Map<String, String> env = apiKey == null ? Map.of() : Map.of("SVC_API_KEY", apiKey);
    return new ServerChild(ChildJvm.startUntilPrefix(Main.class, JVM, env, LISTENING, all.toArray(new String[0])));
  }

  /** Returns the port it listens on. */
  int port() {
    return port;
  }

  /** Returns everything it printed so far (stdout and stderr). */
  String output() {
    return started.output().get();
  }

  /** Kills it as {@code kill -9} does and waits until it is gone. */
  void kill() throws InterruptedException {
    started.process().destroyForcibly();
    if (!started.process().waitFor(30, TimeUnit.SECONDS)) throw new AssertionError("the killed server is still running");
  }

  /** Kills it, if it is still running. */
  @Override
  public void close() throws InterruptedException {
    if (started.process().isAlive()) kill();
  }
}
