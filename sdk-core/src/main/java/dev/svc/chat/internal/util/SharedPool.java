package dev.svc.chat.internal.util;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.svc.chat.TaskScheduler;

/**
 * A small pool of daemon threads shared by many clients, each of which runs its tasks on it through a serial
 * queue of its own. It has {@code size} threads while busy and none when idle (they end after
 * {@code keepAliveMillis}), so it never keeps a JVM alive.
 *
 * <p>A task that blocks holds one thread. So that a few blocked tasks cannot stall every other client for
 * good, a check runs {@code stallMillis} after work was queued behind busy threads: if no task finished
 * meanwhile and work still waits, the pool grows by one thread (up to {@code maxSize}), and checks again;
 * once the queue drains it shrinks back to {@code size}. A blocked client thus delays the others by about
 * {@code stallMillis}, not forever; a client whose handlers block for long should have an executor of its own.
 */
public final class SharedPool implements Executor {
  private final ThreadPoolExecutor pool;
  private final int size;
  private final int maxSize;
  private final long stallMillis;
  private final TaskScheduler timers;
  private final AtomicBoolean checkPending = new AtomicBoolean();

  SharedPool(String name, int size, int maxSize, long keepAliveMillis, long stallMillis, TaskScheduler timers) {
    this.size = size;
    this.maxSize = maxSize;
    this.stallMillis = stallMillis;
    this.timers = timers;
    this.pool = new ThreadPoolExecutor(size, maxSize, keepAliveMillis, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<Runnable>(), new NamedThreadFactory(name, true));
    pool.allowCoreThreadTimeOut(true);
  }

  @Override
  public void execute(Runnable task) {
    pool.execute(task);
    if (!pool.getQueue().isEmpty() && checkPending.compareAndSet(false, true)) {
      final long completed = pool.getCompletedTaskCount();
      timers.schedule(() -> check(completed), stallMillis);
    }
  }

  private void check(long completedBefore) {
    if (pool.getQueue().isEmpty()) {
      if (pool.getCorePoolSize() > size) pool.setCorePoolSize(size); // the extra threads end when next idle
      checkPending.set(false);
      // work queued between the look and the reset saw a check pending: look again
      if (pool.getQueue().isEmpty() || !checkPending.compareAndSet(false, true)) return;
    } else if (pool.getCompletedTaskCount() == completedBefore && pool.getCorePoolSize() < maxSize) {
      pool.setCorePoolSize(pool.getCorePoolSize() + 1); // starts a thread for the queued work
    }
    final long completed = pool.getCompletedTaskCount();
    timers.schedule(() -> check(completed), stallMillis);
  }

  /** Returns the number of threads the pool runs now (for tests and benchmarks). */
  public int threads() {
    return pool.getPoolSize();
  }

  /** Returns the number of threads the pool may run now: its size, plus those added for stalls. */
  public int allowedThreads() {
    return pool.getCorePoolSize();
  }
}
