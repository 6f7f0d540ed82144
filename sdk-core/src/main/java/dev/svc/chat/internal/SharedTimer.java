package dev.svc.chat.internal;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.TaskScheduler;

/**
 * The default {@link TaskScheduler} of clients and helpers: one shared daemon thread that exists only while a timer
 * is pending (it ends after a second idle), so it never keeps a JVM alive or lingers after use.
 */
public final class SharedTimer implements TaskScheduler {
  private static final SharedTimer INSTANCE = new SharedTimer();

  private final ScheduledThreadPoolExecutor executor;

  private SharedTimer() {
    executor = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("svc-chat-timer", false));
    executor.setKeepAliveTime(1, TimeUnit.SECONDS);
    executor.allowCoreThreadTimeOut(true);
    executor.setRemoveOnCancelPolicy(true);
  }

  /** Returns the shared instance. */
  public static TaskScheduler get() {
    return INSTANCE;
  }

  @Override
  public long nowMillis() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
  }

  @Override
  public Cancellable schedule(Runnable task, long delayMillis) {
    final ScheduledFuture<?> future = executor.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    return new Cancellable() {
      @Override
      public void cancel() {
        future.cancel(false);
      }
    };
  }
}
