package dev.svc.chat.session;

/**
 * The time of a {@link SessionManager}: a clock and timers, injected so tests drive token expiry with a
 * virtual clock. The default uses the system clock and one daemon timer thread per manager.
 */
public interface SessionScheduler {
  /** A scheduled task. */
  interface Task {
    /** Cancels the task if it has not run. */
    void cancel();
  }

  /**
   * Returns the wall-clock time, compared with {@link Session#expiresAtMillis()}.
   *
   * @return epoch milliseconds
   */
  long nowMillis();

  /**
   * Runs {@code task} after {@code delayMillis} (0: as soon as possible), on any thread.
   *
   * @param task the task
   * @param delayMillis at least 0
   * @return a handle to cancel it
   */
  Task schedule(Runnable task, long delayMillis);

  /** Releases the scheduler's threads, if it owns any. */
  void shutdown();
}
