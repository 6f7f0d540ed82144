package dev.svc.chat.bench.store;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.sqlite.SqliteChatStore;

/**
 * {@code ChatStore.write} alone, on this thread: batches of {@code batch} new messages of one room with the
 * room's watermarks (what the journal hands the store under the ingest feed), seq going up, in steady state
 * (the room at its bound of 1,000 messages, so each message stored evicts one). CPU and wall time per message.
 */
final class WriteCost {
  final double cpuMicros;
  final double wallMicros;

  private WriteCost(double cpuMicros, double wallMicros) {
    this.cpuMicros = cpuMicros;
    this.wallMicros = wallMicros;
  }

  static WriteCost measure(File dir, int batch, int warmups, int batches) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    ChatStore store = SqliteChatStore.provider(dir).open(StoreFixture.USER);
    try {
      String room = StoreFixture.roomId(0);
      long seq = 0;
      double[] cpu = new double[batches];
      double[] wall = new double[batches];
      for (int b = -warmups; b < batches; b++) {
        StoreWrite w = new StoreWrite();
        for (int i = 0; i < batch; i++) {
          seq++;
          w.message(StoreFixture.message(room, seq, StoreFixture.T0 + seq)).watermarks(room, seq, seq);
        }
        w.writtenAt(StoreFixture.T0 + seq);
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        store.write(w);
        if (b >= 0) {
          wall[b] = (System.nanoTime() - t0) / 1e3 / batch;
          cpu[b] = (threads.getCurrentThreadCpuTime() - c0) / 1e3 / batch;
        }
      }
      Arrays.sort(cpu);
      Arrays.sort(wall);
      return new WriteCost(cpu[batches / 2], wall[batches / 2]);
    } finally {
      store.close();
    }
  }

  /** {@code DIR [BATCH]}: prints the medians, for trying settings by hand. */
  public static void main(String[] args) throws Exception {
    File dir = new File(args[0]);
    StoreFixture.delete(dir);
    WriteCost c = measure(dir, args.length > 1 ? Integer.parseInt(args[1]) : 128, 100, 300);
    System.out.printf(java.util.Locale.ROOT, "write: %.2f µs CPU, %.2f µs wall per message%n", c.cpuMicros, c.wallMicros);
    StoreFixture.delete(dir);
  }
}
