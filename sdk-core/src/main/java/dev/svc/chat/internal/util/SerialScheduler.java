package dev.svc.chat.internal.util;

import java.util.concurrent.Executor;

import dev.svc.chat.TaskScheduler;

/**
 * The actor of a client: a {@link SerialQueue} of tasks over any {@link Executor}, with timers from a
 * {@link TaskScheduler}. Tasks run one at a time in submission order, whatever the executor's threads; a
 * timer that falls due is posted to the queue, so it runs in order with the tasks too. Nothing here owns a
 * thread: many clients may share one small pool and one timer thread, and with a direct executor and a
 * virtual scheduler a whole client runs on a test's thread, on virtual time.
 *
 * <p>A task never runs on the thread that posts it by {@link #execute} (unless the executor is a direct one, or
 * it is the follow-up of a task {@link #executeHere} runs, see {@link SerialQueue#executeHere});
 * {@link #executeHere} and {@link #executeFromApp} run it there when the actor is idle, if this actor was made to
 * ({@link CallerRuns}). When the executor refuses to run the queue (an app's executor that was shut down while a
 * client still used it), the task is refused: {@link #execute} returns false, as after {@link #shutdown()}, and so
 * does every later one, since the client can no longer run; tasks other threads queued meanwhile are dropped with
 * it (and counted in the log). The queue itself exists only while tasks wait: an idle client holds none.
 */
public final class SerialScheduler implements Scheduler {
  private final SerialQueue queue;
  private final TaskScheduler timers;
  /** Which callers may run an idle actor's task on their own thread. */
  private final CallerRuns callerRuns;

  /** Creates a serial queue on {@code executor}, which it never shuts down; every task runs on it. */
  public SerialScheduler(Executor executor, TaskScheduler timers, Log log) {
    this(executor, timers, log, CallerRuns.NONE);
  }

  /**
   * Creates a serial queue on {@code executor}, which it never shuts down, where the callers {@code callerRuns}
   * names run a task themselves when the queue is idle (on the SDK's own pool: an executor the app gave runs all
   * of the client's work).
   */
  public SerialScheduler(Executor executor, TaskScheduler timers, Log log, CallerRuns callerRuns) {
    this.queue = new SerialQueue(executor, "engine", log);
    this.timers = timers;
    this.callerRuns = callerRuns;
  }

  @Override
  public boolean execute(final Runnable task) {
    return queue.execute(task);
  }

  @Override
  public boolean executeHere(final Runnable task) {
    return callerRuns != CallerRuns.NONE ? queue.executeHere(task) : queue.execute(task);
  }

  @Override
  public boolean executeFromApp(final Runnable task) {
    return callerRuns == CallerRuns.TRANSPORTS_AND_APP ? queue.executeHereAlone(task) : queue.execute(task);
  }

  @Override
  public Timer schedule(final Runnable task, long delayMillis) {
    if (queue.isShutdown()) return NO_TIMER;
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
    return queue.backlog();
  }

  @Override
  public long nowMillis() {
    return timers.nowMillis();
  }

  @Override
  public boolean inActor() {
    return queue.inQueue();
  }

  @Override
  public void shutdown() {
    queue.shutdown();
  }
}
