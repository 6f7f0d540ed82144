package dev.svc.chat.samples.bot;

import dev.svc.chat.TaskScheduler;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** A {@link TaskScheduler} on the wall clock, with one daemon thread, for the bot's reminders outside tests. */
public final class SystemScheduler implements TaskScheduler, AutoCloseable {
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bot-reminders");
    t.setDaemon(true);
    return t;
  });

  @Override
  public long nowMillis() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
  }

  @Override
  public Cancellable schedule(Runnable task, long delayMillis) {
    ScheduledFuture<?> f = executor.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    return () -> f.cancel(false);
  }

  /** Stops the thread; pending tasks are dropped. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}
