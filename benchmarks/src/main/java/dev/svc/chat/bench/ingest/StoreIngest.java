package dev.svc.chat.bench.ingest;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.store.ChatStoreProvider;

/**
 * The ingest benchmark's client path (our client, {@code on(NEW_MESSAGE)}, recovery's fetches off, the Node feed)
 * with the offline store on and off, in interleaved rounds of one run, for the store benchmark.
 */
public final class StoreIngest {
  /** Rates and JVM CPU per event of each round, without and with the store. */
  public static final class Result {
    public final double[] without;
    public final double[] with;
    public final double[] cpuWithout;
    public final double[] cpuWith;
    public final int frameBytes;

    Result(int rounds, int frameBytes) {
      without = new double[rounds];
      with = new double[rounds];
      cpuWithout = new double[rounds];
      cpuWith = new double[rounds];
      this.frameBytes = frameBytes;
    }
  }

  private StoreIngest() {
  }

  /**
   * Runs {@code warmups} then {@code rounds} rounds of {@code events} events, each round without then with a
   * store; {@code stores} gives a provider on a fresh directory for each run with a store.
   */
  public static Result measure(int events, int rounds, int warmups, Supplier<ChatStoreProvider> stores)
      throws Exception {
    IngestBenchmark.Feed feed = IngestBenchmark.Feed.start(events);
    Result result = new Result(rounds, feed.frameBytes);
    try {
      for (int w = 0; w < warmups; w++) {
        System.err.printf("store ingest warm-up %d: without %.0f, with %.0f events/s%n", w + 1,
            run(feed.port, events, null), run(feed.port, events, stores.get()));
      }
      for (int r = 0; r < rounds; r++) {
        long cpu0 = IngestBenchmark.processCpuNanos();
        result.without[r] = run(feed.port, events, null);
        long cpu1 = IngestBenchmark.processCpuNanos();
        result.with[r] = run(feed.port, events, stores.get());
        long cpu2 = IngestBenchmark.processCpuNanos();
        result.cpuWithout[r] = (cpu1 - cpu0) / 1000.0 / events;
        result.cpuWith[r] = (cpu2 - cpu1) / 1000.0 / events;
        System.err.printf("store ingest round %d: without %.0f, with %.0f events/s%n", r + 1, result.without[r],
            result.with[r]);
      }
    } finally {
      feed.close();
    }
    return result;
  }

  /** One consumer run: {@link IngestConsumer.Ours}, with {@code store} when not null. */
  static double run(int port, int events, ChatStoreProvider store) throws Exception {
    SvcOptions.Builder options = SvcOptions.builder("http://127.0.0.1:" + port + "/v1").recoverMissedEvents(false);
    if (store != null) options.store(store);
    ChatClient client = Svc.init(options.build());
    try {
      IngestConsumer.Counter counter = new IngestConsumer.Counter(events);
      client.on(EventType.NEW_MESSAGE, m -> counter.hit());
      client.connect("bench-user", "bench-token").get(30, TimeUnit.SECONDS);
      return counter.await();
    } finally {
      client.close();
    }
  }
}
