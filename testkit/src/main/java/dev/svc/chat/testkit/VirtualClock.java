package dev.svc.chat.testkit;

import dev.svc.chat.TaskScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A clock that moves only when the test moves it. It is the reference server's clock (token expiry, call
 * ringing, timestamps, rate limits) and a {@link TaskScheduler} for the SDK's timers: a client or helper given
 * it as its scheduler runs its timeouts when {@link #advance(Duration)} passes them, on the calling thread.
 *
 * <p>It is thread-safe. It never goes backwards.
 */
public final class VirtualClock extends Clock implements TaskScheduler {
  private final List<Task> tasks = new ArrayList<>();
  private long epochMillis;

  /**
   * Creates a clock that starts at {@code start}.
   *
   * @param start the first instant
   */
  public VirtualClock(Instant start) {
    this.epochMillis = Objects.requireNonNull(start, "start").toEpochMilli();
  }

  /**
   * Moves the clock forward by {@code by}, running each scheduled task that falls due on the way, in time
   * order, with the clock at the task's time.
   *
   * @param by how far to move, not negative
   */
  public void advance(Duration by) {
    if (by.isNegative()) throw new IllegalArgumentException("by is negative: " + by);
    long target;
    synchronized (this) {
      target = epochMillis + by.toMillis();
    }
    while (true) {
      Task next = null;
      synchronized (this) {
        for (Task t : tasks) {
          if (t.due <= target && (next == null || t.due < next.due)) next = t;
        }
        if (next == null) {
          epochMillis = Math.max(epochMillis, target);
          return;
        }
        tasks.remove(next);
        epochMillis = Math.max(epochMillis, next.due);
      }
      next.task.run();
    }
  }

  /**
   * Returns the number of scheduled tasks that have not run and were not cancelled.
   *
   * @return the number of pending tasks
   */
  public synchronized int pendingTasks() {
    return tasks.size();
  }

  @Override
  public synchronized Instant instant() {
    return Instant.ofEpochMilli(epochMillis);
  }

  @Override
  public synchronized long millis() {
    return epochMillis;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public long nowMillis() {
    return millis();
  }

  @Override
  public long currentTimeMillis() {
    return millis();
  }

  @Override
  public synchronized Cancellable schedule(Runnable task, long delayMillis) {
    if (delayMillis < 0) throw new IllegalArgumentException("delayMillis < 0: " + delayMillis);
    Task t = new Task(epochMillis + delayMillis, Objects.requireNonNull(task, "task"));
    tasks.add(t);
    return () -> {
      synchronized (VirtualClock.this) {
        tasks.remove(t);
      }
    };
  }

  @Override
  public String toString() {
    return "VirtualClock[" + instant() + "]";
  }

  private record Task(long due, Runnable task) {
  }
}
