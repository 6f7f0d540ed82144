package dev.svc.chat.bench.store;

import java.io.File;
import java.net.ServerSocket;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ChatClient;
import dev.svc.chat.MessagePage;
import dev.svc.chat.RoomList;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.store.sqlite.SqliteChatStore;

/**
 * One cold start of a client on an existing store, offline (its API URL is a closed port): the time from
 * {@code Svc.init} to the first {@code RoomList} snapshot, then a room's first page ({@code getMessages}, which
 * the store answers). Run in a JVM of its own ({@link #main}) for the first-in-JVM figure, or repeatedly in one
 * JVM for the warmed one.
 */
final class ColdStart {
  /** Milliseconds: init to the first snapshot, the page call to its answer, init to the page. */
  final double roomListMs;
  final double pageMs;
  final double initToPageMs;
  final int rooms;
  /**
   * Milliseconds: init to the store's open, the open (connection, schema check), load, every room's digest, and
   * the JVM's CPU time (every thread) from init to the first snapshot.
   */
  final double[] phases;

  private ColdStart(double roomListMs, double pageMs, double initToPageMs, int rooms, double[] phases) {
    this.roomListMs = roomListMs;
    this.pageMs = pageMs;
    this.initToPageMs = initToPageMs;
    this.rooms = rooms;
    this.phases = phases;
  }

  static ColdStart of(String line) {
    String[] f = line.trim().split(" ");
    double[] phases = new double[PHASES];
    for (int i = 0; i < PHASES; i++) phases[i] = Double.parseDouble(f[5 + i]);
    return new ColdStart(Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]),
        Integer.parseInt(f[4]), phases);
  }

  static final int PHASES = 5;

  String line() {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "COLD %.3f %.3f %.3f %d", roomListMs, pageMs,
        initToPageMs, rooms));
    for (double p : phases) sb.append(String.format(Locale.ROOT, " %.3f", p));
    return sb.toString();
  }

  static ColdStart measure(File dir, String room) throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    final RoomList[] first = new RoomList[1];
    final long[] at = new long[1];
    final long[] cpuAt = new long[1];
    final CountDownLatch shown = new CountDownLatch(1);
    CountingStore store = new CountingStore(SqliteChatStore.provider(dir));
    long cpu0 = dev.svc.chat.bench.ingest.IngestBenchmark.processCpuNanos();
    long t0 = System.nanoTime();
    ChatClient client = Svc.init(SvcOptions.builder("http://127.0.0.1:" + deadPort + "/v1").store(store).build());
    try {
      client.roomList(list -> {
        if (shown.getCount() == 0) return;
        at[0] = System.nanoTime();
        cpuAt[0] = dev.svc.chat.bench.ingest.IngestBenchmark.processCpuNanos();
        first[0] = list;
        shown.countDown();
      });
      client.connect(StoreFixture.USER, "bench-token"); // opens the store; the connection itself never opens
      if (!shown.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("no room list within 60 s");
      if (!first[0].fromStore()) throw new IllegalStateException("the first snapshot is not the store's");
      long t2 = System.nanoTime();
      MessagePage page = client.getMessages(room).get(60, TimeUnit.SECONDS);
      long t3 = System.nanoTime();
      if (!page.fromStore() || page.messages().isEmpty()) throw new IllegalStateException("the page is not the store's");
      double[] phases = {(store.openAt - t0) / 1e6, store.openNanos / 1e6, store.loadNanos / 1e6,
          store.digestNanos.get() / 1e6, (cpuAt[0] - cpu0) / 1e6};
      return new ColdStart((at[0] - t0) / 1e6, (t3 - t2) / 1e6, (t3 - t0) / 1e6, first[0].rooms().size(), phases);
    } finally {
      client.close();
    }
  }

  /** In a JVM of its own: {@code DIR ROOM}; prints {@link #line()}. */
  public static void main(String[] args) throws Exception {
    ColdStart c = measure(new File(args[0]), args[1]);
    System.out.println(c.line());
    System.out.flush();
    System.exit(0);
  }
}
