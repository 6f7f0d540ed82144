package dev.svc.chat.internal;

import java.util.concurrent.Executor;

import dev.svc.chat.SerialExecutor;
import dev.svc.chat.TaskScheduler;

/**
 * The actor of a client: a serial queue of tasks over any {@link Executor}, with timers from a
 * {@link TaskScheduler}. Tasks run one at a time in submission order, whatever the executor's threads; a
 * timer that falls due is posted to the queue, so it runs in order with the tasks too. Nothing here owns a
 * thread: many clients may share one small pool and one timer thread, and with a direct executor and a
 * virtual scheduler a whole client runs on a test's thread, on virtual time.
 */
public final class SerialScheduler implements Scheduler {
  private final SerialExecutor serial;
  private final TaskScheduler timers;
  private final Log log;
  private volatile boolean shutdown;
  private volatile Thread runner;

  /** Creates a serial queue on {@code executor}, which it never shuts down. */
  public SerialScheduler(Executor executor, TaskScheduler timers, Log log) {
    this.serial = SerialExecutor.on(executor, log.logger());
    this.timers = timers;
    this.log = log;
  }

  @Override
  public boolean execute(final Runnable task) {
    if (shutdown) return false;
    serial.execute(() -> run(task));
    return true;
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
    return serial.backlog();
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
