package dev.svc.chat.internal;

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

  /** Runs {@code task} on the actor; returns false, dropping it, after {@link #shutdown()}. */
  boolean execute(Runnable task);

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
