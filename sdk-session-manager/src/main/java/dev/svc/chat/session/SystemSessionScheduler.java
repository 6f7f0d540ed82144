package dev.svc.chat.session;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The default {@link SessionScheduler}: the system clock and one daemon thread. */
final class SystemSessionScheduler implements SessionScheduler {
  private static final AtomicInteger IDS = new AtomicInteger();
  private final ScheduledThreadPoolExecutor executor;

  SystemSessionScheduler() {
    final String name = "svc-session-timer-" + IDS.incrementAndGet();
    executor = new ScheduledThreadPoolExecutor(1, new ThreadFactory() {
      @Override
      public Thread newThread(Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
      }
    });
    executor.setRemoveOnCancelPolicy(true);
  }

  @Override
  public long nowMillis() {
    return System.currentTimeMillis();
  }

  @Override
  public Task schedule(Runnable task, long delayMillis) {
    if (executor.isShutdown()) {
      return new Task() {
        @Override
        public void cancel() {}
      };
    }
    final ScheduledFuture<?> f = executor.schedule(task, Math.max(0, delayMillis), TimeUnit.MILLISECONDS);
    return new Task() {
      @Override
      public void cancel() {
        f.cancel(false);
      }
    };
  }

  @Override
  public void shutdown() {
    executor.shutdownNow();
  }
}
