package dev.svc.chat.testing;

import java.util.ArrayList;
import java.util.List;

import dev.svc.chat.TaskScheduler;

/** A {@link TaskScheduler} on a virtual clock: {@link #advance} runs the tasks that fall due, in order. */
public final class VirtualTaskScheduler implements TaskScheduler {
  private long now;
  private final List<Task> tasks = new ArrayList<>();

  @Override
  public synchronized long nowMillis() {
    return now;
  }

  @Override
  public synchronized Cancellable schedule(Runnable task, long delayMillis) {
    final Task t = new Task(now + delayMillis, task);
    tasks.add(t);
    return () -> {
      synchronized (VirtualTaskScheduler.this) {
        tasks.remove(t);
      }
    };
  }

  /** Returns the number of pending tasks. */
  public synchronized int pending() {
    return tasks.size();
  }

  /** Returns when the earliest pending task falls due, or {@link Long#MAX_VALUE} when none is pending. */
  public synchronized long nextDueMillis() {
    long due = Long.MAX_VALUE;
    for (Task t : tasks) due = Math.min(due, t.due);
    return due;
  }

  /** Returns whether a task is due at exactly {@code dueMillis}: to wait until another thread armed a timer. */
  public synchronized boolean hasTaskDueAt(long dueMillis) {
    for (Task t : tasks) if (t.due == dueMillis) return true;
    return false;
  }

  /** Moves the clock forward by {@code millis}, running every task that falls due on the way. */
  public void advance(long millis) {
    long target;
    synchronized (this) {
      target = now + millis;
    }
    while (true) {
      Task next = null;
      synchronized (this) {
        for (Task t : tasks) {
          if (t.due <= target && (next == null || t.due < next.due)) next = t;
        }
        if (next == null) {
          now = target;
          return;
        }
        tasks.remove(next);
        now = next.due;
      }
      next.task.run();
    }
  }

  private static final class Task {
    final long due;
    final Runnable task;

    Task(long due, Runnable task) {
      this.due = due;
      this.task = task;
    }
  }
}
