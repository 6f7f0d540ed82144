package dev.svc.chat.session;

import java.util.function.IntConsumer;

import org.jspecify.annotations.Nullable;

/**
 * The one timer of a {@link SessionManager}: either the refresh before the token expires
 * ({@link RefreshPolicy#delayMillis}) or the retry of a failed fetch (1 s doubling to 60 s). Guarded by the
 * manager's lock: every method is called while the manager holds it. When the timer falls due it calls
 * {@code due} with the generation it was set in, without the lock; the manager ignores a stale one.
 */
final class RefreshTimer {
  private final SessionScheduler scheduler;
  private final RefreshPolicy policy;
  private final IntConsumer due;
  private SessionScheduler.@Nullable Task task;
  /** The session the pending refresh is for (null for a retry before any session). */
  private @Nullable Session timedSession;
  /** Failed fetches in a row; above 0 with a task set: the task is a retry. */
  private int retryAttempt;

  RefreshTimer(SessionScheduler scheduler, RefreshPolicy policy, IntConsumer due) {
    this.scheduler = scheduler;
    this.policy = policy;
    this.due = due;
  }

  /** Sets the refresh of {@code s} before its expiry, unless it is already set; returns the delay or -1. */
  long refreshBeforeExpiry(Session s, int generation) {
    if (task != null && timedSession == s) return -1;
    cancel();
    long delay = policy.delayMillis(s.expiresAtMillis(), scheduler.nowMillis());
    schedule(delay, s, generation);
    return delay;
  }

  /** Sets the retry of a failed fetch, each one waiting longer; returns its delay. */
  long retryLater(@Nullable Session held, int generation) {
    long delay = RefreshPolicy.retryDelayMillis(retryAttempt++);
    cancel();
    schedule(delay, held, generation);
    return delay;
  }

  /** Returns whether a failed fetch waits out its backoff (not the refresh before expiry). */
  boolean waitingToRetry() {
    return retryAttempt > 0 && task != null;
  }

  /** Starts the retry backoff from its first step again (a fetch or a connect succeeded, or a new start). */
  void resetRetries() {
    retryAttempt = 0;
  }

  /** Returns whether the token held is too close to its expiry to connect with it. */
  boolean tooCloseToExpiry(Session s) {
    return s.expiresAtMillis() - scheduler.nowMillis() <= policy.leadMillis();
  }

  /** Cancels the timer, if set. */
  void cancel() {
    if (task != null) task.cancel();
    task = null;
    timedSession = null;
  }

  /** Forgets the task that just fell due (it ran), so a new one can be set. */
  void fired() {
    task = null;
    timedSession = null;
  }

  private void schedule(long delay, @Nullable Session s, final int generation) {
    timedSession = s;
    task = scheduler.schedule(new Runnable() {
      @Override
      public void run() {
        due.accept(generation);
      }
    }, delay);
  }
}
