package dev.svc.chat.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

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

  /**
   * Blocks one of the executor's threads until {@link #release()}, and returns once it is blocked: on a single
   * thread, every task submitted after this call then waits. (Returning before that let a task already running,
   * such as a client's serial queue draining what is added to it, go on taking work "after" the hold.)
   */
  public void hold() throws InterruptedException {
    CountDownLatch g = new CountDownLatch(1);
    CountDownLatch blocked = new CountDownLatch(1);
    gate = g;
    pool.execute(() -> {
      blocked.countDown();
      try {
        g.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    if (!blocked.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      throw new AssertionError("the executor did not get to the hold within " + FakeGateway.TIMEOUT_SECONDS + " s");
    }
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
