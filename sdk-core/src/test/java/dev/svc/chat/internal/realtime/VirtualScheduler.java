package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.testing.FakeGateway;

/**
 * A {@link Scheduler} whose tasks run on the test thread when it pumps, and whose timers fire only when the
 * test advances virtual time: heartbeats and backoff are tested without waiting.
 */
final class VirtualScheduler implements Scheduler {
  private final LinkedBlockingQueue<Runnable> ready = new LinkedBlockingQueue<>();
  private final PriorityQueue<Entry> timers = new PriorityQueue<>();
  /** Every delay ever scheduled, in order. */
  final List<Long> delays = new CopyOnWriteArrayList<>();
  private long now;
  private long sequence;
  private volatile boolean shutdown;
  private volatile Thread pumpThread;

  @Override
  public boolean execute(Runnable task) {
    if (shutdown) return false;
    ready.add(task);
    return true;
  }

  @Override
  public synchronized Timer schedule(Runnable task, long delayMillis) {
    final Entry e = new Entry(now + delayMillis, sequence++, task);
    delays.add(delayMillis);
    timers.add(e);
    return () -> e.cancelled = true;
  }

  @Override
  public synchronized long nowMillis() {
    return now;
  }

  @Override
  public boolean inActor() {
    return Thread.currentThread() == pumpThread;
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  /** Runs tasks, waiting for those posted by OkHttp threads, until {@code condition} holds ({@link FakeGateway#TIMEOUT_SECONDS} at most). */
  void pumpUntil(String what, BooleanSupplier condition) throws InterruptedException {
    pumpThread = Thread.currentThread();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FakeGateway.TIMEOUT_SECONDS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) fail("timed out waiting for " + what);
      Runnable r = ready.poll(10, TimeUnit.MILLISECONDS);
      if (r != null) r.run();
    }
  }

  /** Moves virtual time forward, firing due timers in order, and running ready tasks between them. */
  void advance(long millis) {
    pumpThread = Thread.currentThread();
    long target = now + millis;
    while (true) {
      Runnable r;
      while ((r = ready.poll()) != null) r.run();
      Entry next;
      synchronized (this) {
        next = timers.peek();
        if (next == null || next.due > target) break;
        timers.poll();
        if (next.cancelled) continue;
        now = next.due;
      }
      next.task.run();
    }
    now = target;
  }

  private static final class Entry implements Comparable<Entry> {
    final long due;
    final long seq;
    final Runnable task;
    volatile boolean cancelled;

    Entry(long due, long seq, Runnable task) {
      this.due = due;
      this.seq = seq;
      this.task = task;
    }

    @Override
    public int compareTo(Entry o) {
      return due != o.due ? Long.compare(due, o.due) : Long.compare(seq, o.seq);
    }
  }
}
