package dev.svc.chat.internal;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.RejectedExecutionException;

import dev.svc.chat.TaskScheduler;

/**
 * The actor of a client: a serial queue of tasks over any {@link Executor}, with timers from a
 * {@link TaskScheduler}. Tasks run one at a time in submission order, whatever the executor's threads; a
 * timer that falls due is posted to the queue, so it runs in order with the tasks too. Nothing here owns a
 * thread: many clients may share one small pool and one timer thread, and with a direct executor and a
 * virtual scheduler a whole client runs on a test's thread, on virtual time.
 */
public final class SerialScheduler implements Scheduler {
  private final Executor executor;
  private final TaskScheduler timers;
  private final Log log;
  private final Runnable onShutdown;
  private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
  private boolean draining;
  private volatile boolean shutdown;
  private volatile Thread runner;
  private final Runnable drain = this::drain;

  /**
   * Creates a serial queue on {@code executor}. {@code onShutdown} runs once at {@link #shutdown()}, for
   * releasing an executor the client created (null: nothing to release).
   */
  public SerialScheduler(Executor executor, TaskScheduler timers, Log log, Runnable onShutdown) {
    this.executor = executor;
    this.timers = timers;
    this.log = log;
    this.onShutdown = onShutdown;
  }

  /**
   * Returns the serial queue of a client: on {@code executor} if given, else on a daemon thread of its own
   * (named {@code threadName}) that ends when idle and is stopped at {@link #shutdown()}.
   */
  public static SerialScheduler forClient(Executor executor, TaskScheduler timers, String threadName, Log log) {
    if (executor != null) return new SerialScheduler(executor, timers, log, null);
    ThreadPoolExecutor own = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<Runnable>(),
        new NamedThreadFactory(threadName, false));
    own.allowCoreThreadTimeOut(true); // an unclosed client does not pin a thread forever
    return new SerialScheduler(own, timers, log, own::shutdownNow);
  }

  @Override
  public boolean execute(Runnable task) {
    synchronized (queue) {
      if (shutdown) return false;
      queue.add(task);
      if (draining) return true;
      draining = true;
    }
    try {
      executor.execute(drain);
    } catch (RejectedExecutionException e) {
      synchronized (queue) {
        draining = false;
        queue.clear();
      }
      return false;
    }
    return true;
  }

  private void drain() {
    Thread previous = runner;
    runner = Thread.currentThread();
    try {
      while (true) {
        Runnable next;
        synchronized (queue) {
          next = shutdown ? null : queue.poll();
          if (next == null) {
            draining = false;
            return;
          }
        }
        try {
          next.run();
        } catch (Throwable t) {
          // a bug in the actor must not stop the queue and strand every pending future
          log.error("unexpected error on the connection's serial queue", t);
        }
      }
    } finally {
      runner = previous;
    }
  }

  @Override
  public Timer schedule(final Runnable task, long delayMillis) {
    if (shutdown) return () -> { };
    final boolean[] cancelled = new boolean[1];
    final TaskScheduler.Cancellable handle = timers.schedule(() -> execute(() -> {
      if (!cancelled[0]) task.run();
    }), Math.max(0, delayMillis));
    return () -> {
      cancelled[0] = true; // read on the queue: a timer already posted does not run either
      handle.cancel();
    };
  }

  @Override
  public int backlog() {
    synchronized (queue) {
      return queue.size();
    }
  }

  @Override
  public long nowMillis() {
    return timers.nowMillis();
  }

  @Override
  public boolean inActor() {
    return Thread.currentThread() == runner;
  }

  @Override
  public void shutdown() {
    synchronized (queue) {
      if (shutdown) return;
      shutdown = true;
      queue.clear();
    }
    if (onShutdown != null) onShutdown.run();
  }
}
