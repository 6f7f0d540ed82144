package dev.svc.chat;

/**
 * Time and timers for the SDK's helpers (such as {@link ComposerTypingController}), injected so that tests
 * can drive a virtual clock instead of sleeping. Implementations run tasks one at a time or tolerate
 * concurrent ones; the helpers synchronise their own state.
 */
public interface TaskScheduler {
  /** A scheduled task. */
  interface Cancellable {
    /** Cancels the task if it has not started; does nothing otherwise. */
    void cancel();
  }

  /**
   * Returns a monotonic time in milliseconds, for measuring durations (not a wall-clock time).
   *
   * @return the current time
   */
  long nowMillis();

  /**
   * Returns the wall-clock time in epoch milliseconds, for comparing with the service's timestamps. The
   * default is the system clock; a virtual scheduler may override it.
   *
   * @return the current wall-clock time
   */
  default long currentTimeMillis() {
    return System.currentTimeMillis();
  }

  /**
   * Runs {@code task} once after {@code delayMillis}.
   *
   * @param task the task
   * @param delayMillis the delay, at least 0
   * @return a handle that cancels it
   */
  Cancellable schedule(Runnable task, long delayMillis);
}
