package dev.svc.chat.internal.util;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import dev.svc.chat.TaskScheduler;

/**
 * The actor of a client: a serial queue of tasks over any {@link Executor}, with timers from a
 * {@link TaskScheduler}. Tasks run one at a time in submission order, whatever the executor's threads; a
 * timer that falls due is posted to the queue, so it runs in order with the tasks too. Nothing here owns a
 * thread: many clients may share one small pool and one timer thread, and with a direct executor and a
 * virtual scheduler a whole client runs on a test's thread, on virtual time.
 *
 * <p>A task never runs on the thread that posts it (unless the executor is a direct one). When the executor
 * refuses to run the queue (an app's executor that was shut down while a client still used it), the task is
 * refused: {@link #execute} returns false, as after {@link #shutdown()}, and so does every later one, since
 * the client can no longer run; tasks other threads queued meanwhile are dropped with it (and counted in the
 * log). The queue itself exists only while tasks wait: an idle client holds none.
 */
public final class SerialScheduler implements Scheduler {
  private final Executor executor;
  private final TaskScheduler timers;
  private final Log log;
  private final Runnable drain = this::drain;
  /** Tasks waiting behind the running one; null when none waits. Guarded by {@link #drain}. */
  private ArrayDeque<Runnable> queue;
  /** Whether a drain is posted to the executor or running. Guarded by {@link #drain}. */
  private boolean draining;
  private volatile boolean shutdown;
  private volatile Thread runner;

  /** Creates a serial queue on {@code executor}, which it never shuts down. */
  public SerialScheduler(Executor executor, TaskScheduler timers, Log log) {
    this.executor = executor;
    this.timers = timers;
    this.log = log;
  }

  @Override
  public boolean execute(final Runnable task) {
    if (shutdown) return false;
    synchronized (drain) {
      if (queue == null) queue = new ArrayDeque<>(4);
      queue.add(task);
      if (draining) return true; // the running drain takes it
      draining = true;
    }
    try {
      executor.execute(drain);
      return true;
    } catch (RejectedExecutionException e) {
      // No drain runs, but other threads may have queued tasks meanwhile (they saw draining and were told
      // true): nothing would ever run those, so the whole queue is refused with this task (the client stops).
      int dropped;
      synchronized (drain) {
        dropped = queue == null ? 0 : Math.max(0, queue.size() - 1);
        queue = null;
        draining = false;
      }
      String droppedNote = dropped == 0 ? "" : "; " + dropped + " other queued task(s) dropped";
      if (!shutdown) {
        shutdown = true;
        log.error("the engine executor refused the client's work (was it shut down while the client was in use?);"
            + " the client stops working: close it" + droppedNote, e);
      } else if (dropped > 0) {
        log.warn("the engine executor refused the client's work" + droppedNote, e);
      }
      return false;
    }
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (drain) {
        next = queue == null ? null : queue.poll();
        if (next == null) {
          queue = null; // an idle client holds no queue
          draining = false;
          return;
        }
      }
      run(next);
    }
  }

  private void run(Runnable task) {
    if (shutdown) return; // what was queued before shutdown() is dropped
    Thread previous = runner;
    runner = Thread.currentThread();
    try {
      task.run();
    } catch (Throwable t) {
      // a bug in the actor must not stop the queue and strand every pending future
      log.error("unexpected error on the connection's serial queue", t);
    } finally {
      runner = previous;
    }
  }

  @Override
  public Timer schedule(final Runnable task, long delayMillis) {
    if (shutdown) return NO_TIMER;
    ActorTimer timer = new ActorTimer(task);
    timer.handle = timers.schedule(timer, Math.max(0, delayMillis));
    return timer;
  }

  private static final Timer NO_TIMER = () -> { };

  /**
   * One timer, as one object: it is the timer thread's task (which posts it to the queue), the queue's task
   * (which runs the client's task unless cancelled meanwhile), and the handle that cancels it.
   */
  private final class ActorTimer implements Runnable, Timer {
    private final Runnable task;
    volatile TaskScheduler.Cancellable handle;
    private volatile boolean cancelled;
    private boolean posted;

    ActorTimer(Runnable task) {
      this.task = task;
    }

    @Override
    public void run() {
      if (!posted) {
        posted = true; // on the timer thread, before the post: the queue sees it (execute synchronizes)
        execute(this);
      } else if (!cancelled) {
        task.run(); // on the queue: a timer cancelled after it was posted does not run either
      }
    }

    @Override
    public void cancel() {
      cancelled = true;
      TaskScheduler.Cancellable h = handle;
      if (h != null) h.cancel();
    }
  }

  @Override
  public int backlog() {
    synchronized (drain) {
      return queue == null ? 0 : queue.size();
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
    if (shutdown) return;
    shutdown = true;
  }
}
