package dev.svc.chat.internal.util;

/**
 * A serial executor with timers: the actor that owns a client's connection state. Tasks and timers run one
 * at a time, in submission order. Tests may substitute a virtual one.
 */
public interface Scheduler {
  /** A scheduled timer. */
  interface Timer {
    /** Cancels the timer if it has not run; does nothing otherwise. */
    void cancel();
  }

  /**
   * Runs {@code task} on the actor, later, never on the calling thread (unless the actor's executor is a direct
   * one, or the caller is a task that {@link #executeHere} runs: then it may run after that task, on its thread).
   * Returns true when the task will run; false, dropping it, when the client can no longer run tasks:
   * after {@link #shutdown()}, or once the executor has refused one (an app's executor shut down while the
   * client still used it). Callers treat false as "the client is closed".
   */
  boolean execute(Runnable task);

  /**
   * Runs {@code task} on the actor, on the calling thread if the actor is idle (nothing running or waiting), else
   * later as {@link #execute} does. For a transport's thread handing over what it read: saves a hand-off to
   * another thread when the actor has nothing else to do. The caller must hold no lock the actor's tasks take.
   */
  default boolean executeHere(Runnable task) {
    return execute(task);
  }

  /**
   * Runs {@code task}, which an app's call hands the actor (a send), on the calling thread if the actor is idle and
   * the client lets its app's threads run its work ({@link CallerRuns#TRANSPORTS_AND_APP}), else later as {@link
   * #execute} does. The task must be short and never block: it runs on the app's thread before the call returns.
   * Unlike {@link #executeHere}, the app's thread runs that task only: what others queue meanwhile waits for the
   * actor's own thread.
   */
  default boolean executeFromApp(Runnable task) {
    return execute(task);
  }

  /** Runs {@code task} on the actor after {@code delayMillis}; a no-op timer after shutdown. */
  Timer schedule(Runnable task, long delayMillis);

  /** Returns a monotonic time in milliseconds (virtual in tests), for deadlines and durations. */
  long nowMillis();

  /** Returns how many tasks wait to run (for backpressure). */
  default int backlog() {
    return 0;
  }

  /** Returns whether the calling thread is the actor's. */
  boolean inActor();

  /** Stops running tasks and timers, and lets the actor's thread end. */
  void shutdown();
}
