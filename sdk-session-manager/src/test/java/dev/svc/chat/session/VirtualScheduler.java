package dev.svc.chat.session;

import java.util.ArrayList;
import java.util.List;

/** A {@link SessionScheduler} on virtual time: tasks run on the test thread when the test advances time. */
final class VirtualScheduler implements SessionScheduler {
  private final List<Entry> entries = new ArrayList<>();
  final List<Long> delays = new ArrayList<>();
  private long now = 1_800_000_000_000L;
  private long order;

  @Override
  public synchronized long nowMillis() {
    return now;
  }

  @Override
  public synchronized Task schedule(Runnable task, long delayMillis) {
    Entry e = new Entry(now + delayMillis, order++, task);
    delays.add(delayMillis);
    entries.add(e);
    return () -> e.cancelled = true;
  }

  @Override
  public void shutdown() {}

  /** Moves time forward by {@code millis}, running each task that falls due, in time order. */
  void advance(long millis) {
    long target;
    synchronized (this) {
      target = now + millis;
    }
    while (true) {
      Entry next = null;
      synchronized (this) {
        for (Entry e : entries) {
          if (!e.cancelled && e.at <= target && (next == null || e.at < next.at
              || (e.at == next.at && e.order < next.order))) {
            next = e;
          }
        }
        if (next == null) {
          now = target;
          return;
        }
        entries.remove(next);
        now = Math.max(now, next.at);
      }
      next.task.run();
    }
  }

  /** Returns the delay of the latest pending (not cancelled) task, or -1. */
  synchronized long pendingDelay() {
    for (int i = entries.size() - 1; i >= 0; i--) {
      if (!entries.get(i).cancelled) return entries.get(i).at - now;
    }
    return -1;
  }

  private static final class Entry {
    final long at;
    final long order;
    final Runnable task;
    volatile boolean cancelled;

    Entry(long at, long order, Runnable task) {
      this.at = at;
      this.order = order;
      this.task = task;
    }
  }
}
