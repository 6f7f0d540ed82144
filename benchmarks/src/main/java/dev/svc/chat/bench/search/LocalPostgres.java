package dev.svc.chat.bench.search;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway PostgreSQL cluster for a benchmark: {@code initdb} in a temporary directory, {@code pg_ctl start} on
 * 127.0.0.1 at a free port, and at {@link #close()} a fast stop and the directory deleted. PostgreSQL refuses to
 * run as root: as root, its directory is handed to {@code nobody} and its programs run through {@code setpriv}.
 * The binaries are those on the PATH ({@code initdb}, {@code pg_ctl}), else the newest of /usr/lib/postgresql.
 * The data is thrown away, so the cluster runs without fsync (the load is faster; reads are the same). A
 * shutdown hook closes it too, should the benchmark end on a signal.
 */
final class LocalPostgres implements AutoCloseable {
  private static final String NOBODY = "65534";

  final int port;
  private final Path dir;
  private final Path bin;
  private final boolean root;

  private LocalPostgres(Path dir, Path bin, int port, boolean root) {
    this.dir = dir;
    this.bin = bin;
    this.port = port;
    this.root = root;
  }

  /** Starts a cluster; the caller closes it. */
  static LocalPostgres start() throws IOException, InterruptedException {
    Path bin = binaries();
    Path dir = Files.createTempDirectory("svc-search-bench-pg-");
    boolean root = "root".equals(System.getProperty("user.name"));
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    LocalPostgres pg = new LocalPostgres(dir, bin, port, root);
    // a benchmark stopped before its close (a signal) leaves no cluster running; a second close does nothing
    Runtime.getRuntime().addShutdownHook(new Thread(pg::close, "local-postgres-stop"));
    try {
      if (root) pg.run(List.of("chown", "-R", NOBODY + ":" + NOBODY, dir.toString()), false);
      pg.run(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", "postgres",
          "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"), true);
      String options = "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=" + dir
          + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=512MB"
          + " -c max_connections=50";
      pg.run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-o", options, "-l",
          dir.resolve("log").toString(), "-w", "-t", "120", "start"), true);
    } catch (IOException | RuntimeException e) {
      pg.close();
      throw e;
    }
    return pg;
  }

  String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  /** Stops the cluster (fast) and deletes its directory. */
  @Override
  public synchronized void close() {
    try {
      if (Files.exists(dir.resolve("data/postmaster.pid"))) {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast", "-w",
            "stop"), true);
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      System.err.println("stopping PostgreSQL: " + e.getMessage());
    } finally {
      delete(dir.toFile());
    }
  }

  private void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
    List<String> full = new ArrayList<>();
    if (asPostgres && root) {
      full.addAll(Arrays.asList("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups"));
    }
    full.addAll(command);
    Process p = new ProcessBuilder(full).directory(dir.toFile()).redirectErrorStream(true).start();
    byte[] output = p.getInputStream().readAllBytes();
    if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + new String(output));
    }
  }

  private static Path binaries() throws IOException {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Paths.get(d, "initdb")) && Files.isExecutable(Paths.get(d, "pg_ctl"))) {
        return Paths.get(d);
      }
    }
    File[] versions = new File("/usr/lib/postgresql").listFiles();
    if (versions != null) {
      Arrays.sort(versions);
      for (int i = versions.length - 1; i >= 0; i--) {
        Path b = versions[i].toPath().resolve("bin");
        if (Files.isExecutable(b.resolve("initdb"))) return b;
      }
    }
    throw new IOException("no PostgreSQL binaries (initdb, pg_ctl) on the PATH nor in /usr/lib/postgresql");
  }

  static void delete(File f) {
    File[] children = f.listFiles();
    if (children != null) for (File c : children) delete(c);
    f.delete();
  }
}
