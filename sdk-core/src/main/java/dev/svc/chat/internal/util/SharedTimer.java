package dev.svc.chat.internal.util;

import java.util.concurrent.Callable;
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
    Entry entry = new Entry(task);
    entry.future = executor.schedule(entry, delayMillis, TimeUnit.MILLISECONDS);
    return entry;
  }

  /**
   * A pending timer as one object, the executor's task (a {@link Callable}, which the executor keeps as it is,
   * where a {@code Runnable} gets an adapter) and its handle: a fleet has a few timers pending per client.
   */
  private static final class Entry implements Callable<Void>, Cancellable {
    private final Runnable task;
    volatile ScheduledFuture<?> future;
    private volatile boolean cancelled;

    Entry(Runnable task) {
      this.task = task;
    }

    @Override
    public Void call() {
      if (!cancelled) task.run();
      return null;
    }

    @Override
    public void cancel() {
      cancelled = true; // also when the handle was not yet set
      ScheduledFuture<?> f = future;
      if (f != null) f.cancel(false);
    }
  }
}
