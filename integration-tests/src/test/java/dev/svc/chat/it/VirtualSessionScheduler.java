package dev.svc.chat.it;

import dev.svc.chat.testkit.VirtualClock;
import dev.svc.chat.session.SessionScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link SessionScheduler} on the same virtual time as the reference server's {@link VirtualClock}: the
 * test advances both at once, and due tasks run on the test thread.
 */
final class VirtualSessionScheduler implements SessionScheduler {
  private final VirtualClock clock;
  private final List<Entry> entries = new ArrayList<>();

  VirtualSessionScheduler(VirtualClock clock) {
    this.clock = clock;
  }

  @Override
  public long nowMillis() {
    return clock.millis();
  }

  @Override
  public synchronized Task schedule(Runnable task, long delayMillis) {
    Entry e = new Entry(clock.millis() + delayMillis, task);
    entries.add(e);
    return () -> e.cancelled = true;
  }

  @Override
  public void shutdown() {}

  /** Moves the shared clock by {@code by}, running the tasks that fall due, in time order. */
  void advance(Duration by) {
    long target = clock.millis() + by.toMillis();
    while (true) {
      Entry next = null;
      synchronized (this) {
        for (Entry e : entries) {
          if (!e.cancelled && e.at <= target && (next == null || e.at < next.at)) next = e;
        }
        if (next != null) entries.remove(next);
      }
      if (next == null) break;
      long now = clock.millis();
      if (next.at > now) clock.advance(Duration.ofMillis(next.at - now));
      next.task.run();
    }
    long now = clock.millis();
    if (target > now) clock.advance(Duration.ofMillis(target - now));
  }

  private static final class Entry {
    final long at;
    final Runnable task;
    volatile boolean cancelled;

    Entry(long at, Runnable task) {
      this.at = at;
      this.task = task;
    }
  }
}
