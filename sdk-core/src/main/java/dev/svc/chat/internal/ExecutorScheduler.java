package dev.svc.chat.internal;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/** The real {@link Scheduler}: one named daemon thread. */
public final class ExecutorScheduler implements Scheduler {
  private final ScheduledThreadPoolExecutor executor;
  private final Log log;
  private volatile Thread thread;

  public ExecutorScheduler(String threadName, Log log) {
    this.log = log;
    final NamedThreadFactory names = new NamedThreadFactory(threadName, false);
    ThreadFactory factory = new ThreadFactory() {
      @Override
      public Thread newThread(Runnable r) {
        Thread t = names.newThread(r);
        thread = t;
        return t;
      }
    };
    this.executor = new ScheduledThreadPoolExecutor(1, factory);
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    // let the thread end when idle, so an unclosed client does not pin a thread forever
    executor.setKeepAliveTime(10, TimeUnit.SECONDS);
    executor.allowCoreThreadTimeOut(true);
  }

  @Override
  public boolean execute(Runnable task) {
    try {
      executor.execute(guard(task));
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  @Override
  public Timer schedule(Runnable task, long delayMillis) {
    try {
      final ScheduledFuture<?> f = executor.schedule(guard(task), delayMillis, TimeUnit.MILLISECONDS);
      return new Timer() {
        @Override
        public void cancel() {
          f.cancel(false);
        }
      };
    } catch (RejectedExecutionException e) {
      return new Timer() {
        @Override
        public void cancel() {
        }
      };
    }
  }

  @Override
  public boolean inActor() {
    return Thread.currentThread() == thread;
  }

  @Override
  public void shutdown() {
    executor.shutdownNow();
  }

  private Runnable guard(final Runnable task) {
    return new Runnable() {
      @Override
      public void run() {
        try {
          task.run();
        } catch (Throwable t) {
          // a bug in the actor must not kill its thread and strand every pending future
          log.error("unexpected error on the connection thread", t);
        }
      }
    };
  }
}
