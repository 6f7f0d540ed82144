package dev.svc.chat.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A callback executor on threads named {@code test-callbacks-*} that a test can hold, so it can register
 * continuations on a future before the future can complete.
 */
public final class GatedExecutor implements Executor, AutoCloseable {
  private final ExecutorService pool;
  private volatile CountDownLatch gate;

  public GatedExecutor(int threads) {
    int[] n = {0};
    this.pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "test-callbacks-" + (++n[0]));
      t.setDaemon(true);
      return t;
    });
  }

  /** Blocks the executor's next task until {@link #release()}. */
  public void hold() {
    CountDownLatch g = new CountDownLatch(1);
    gate = g;
    pool.execute(() -> {
      try {
        g.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }

  public void release() {
    CountDownLatch g = gate;
    if (g != null) g.countDown();
  }

  public boolean isShutdown() {
    return pool.isShutdown();
  }

  @Override
  public void execute(Runnable command) {
    pool.execute(command);
  }

  @Override
  public void close() {
    release();
    pool.shutdownNow();
  }
}
