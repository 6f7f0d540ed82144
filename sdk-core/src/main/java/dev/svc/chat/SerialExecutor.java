package dev.svc.chat;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.internal.util.NamedThreadFactory;

/**
 * Runs tasks one at a time, in submission order, on another executor (which may itself be multi-threaded):
 * how the SDK delivers callbacks, so that handlers see events in order whatever executor the app gives. A task
 * that throws is logged and the next one runs. Useful to code built on the SDK (the session manager uses it)
 * that hands callbacks to an app's executor in order.
 *
 * <p>A task never runs on the thread that submits it, which for the SDK is an engine, socket reader or OkHttp
 * thread. If the executor refuses to run the queue (it was shut down while still in use), the tasks waiting
 * then are dropped, an error is logged once, and every later task is dropped too: nothing it would have
 * completed or delivered happens. An executor shut down only after the last task ran loses nothing.
 */
public final class SerialExecutor implements Executor {
  private final Executor delegate;
  private final ExecutorService owned;
  private final ChatLogger logger;
  private final Runnable drain = this::drain;
  /** The tasks waiting; null while none does, so that an idle executor holds no queue. Guarded by {@link #drain}. */
  private ArrayDeque<Runnable> queue;
  /** Guarded by {@link #drain}. */
  private boolean draining;
  /** Whether the executor refused the queue: every task is dropped from then on. */
  private volatile boolean refused;

  private SerialExecutor(Executor delegate, ExecutorService owned, ChatLogger logger) {
    this.delegate = delegate;
    this.owned = owned;
    this.logger = logger;
  }

  /**
   * Returns a serial executor on {@code executor}, which it never shuts down.
   *
   * @param executor the executor that runs the tasks, such as the Android main thread's
   * @param logger where a task that throws is reported
   * @return a new serial executor
   */
  public static SerialExecutor on(Executor executor, ChatLogger logger) {
    if (executor == null) throw new NullPointerException("executor == null");
    if (logger == null) throw new NullPointerException("logger == null");
    return new SerialExecutor(executor, null, logger);
  }

  /**
   * Returns a serial executor on one daemon thread of its own, named {@code threadName}, that ends when idle
   * and is stopped by {@link #shutdown()}.
   *
   * @param threadName the thread's name
   * @param logger where a task that throws is reported
   * @return a new serial executor
   */
  public static SerialExecutor ownThread(String threadName, ChatLogger logger) {
    if (logger == null) throw new NullPointerException("logger == null");
    ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS,
        new LinkedBlockingQueue<Runnable>(), new NamedThreadFactory(threadName, false));
    pool.allowCoreThreadTimeOut(true);
    return new SerialExecutor(pool, pool, logger);
  }

  /**
   * Queues {@code task} to run after those queued before it; drops it if the executor refused this queue.
   *
   * @param task the task to run
   */
  @Override
  public void execute(Runnable task) {
    if (refused) return;
    synchronized (drain) {
      if (queue == null) queue = new ArrayDeque<>(4);
      queue.add(task);
      if (draining) return;
      draining = true;
    }
    try {
      delegate.execute(drain);
    } catch (RejectedExecutionException e) {
      // Never run the tasks here instead: the caller is the SDK's thread, and app code there stalls every
      // connection on it. Tasks other threads queued meanwhile (they saw draining) would never run either.
      int dropped;
      synchronized (drain) {
        dropped = queue == null ? 0 : queue.size();
        queue = null;
        draining = false;
      }
      if (!refused) {
        refused = true;
        log(LogLevel.ERROR, "the callback executor refused work (was it shut down while still in use?); " + dropped
            + " callback(s) dropped, and later ones will be too", e);
      }
    }
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (drain) {
        next = queue == null ? null : queue.poll();
        if (next == null) {
          queue = null;
          draining = false;
          return;
        }
      }
      try {
        next.run();
      } catch (Throwable t) {
        warn(t);
      }
    }
  }

  private void warn(Throwable t) {
    log(LogLevel.WARN, "a callback threw; delivery goes on", t);
  }

  private void log(LogLevel level, String message, Throwable t) {
    try {
      if (logger.isLoggable(level)) logger.log(level, message, t);
    } catch (RuntimeException ignored) {
      // a broken logger must not stop delivery
    }
  }

  /**
   * Returns how many tasks wait to run.
   *
   * @return the number of queued tasks
   */
  public int backlog() {
    synchronized (drain) {
      return queue == null ? 0 : queue.size();
    }
  }

  /** Shuts down the thread this executor owns, after the tasks already queued; does nothing for a given executor. */
  public void shutdown() {
    if (owned != null) owned.shutdown();
  }
}
