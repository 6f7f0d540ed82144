package dev.svc.chat.internal.realtime;

import dev.svc.chat.internal.util.Scheduler;

/**
 * An engine's capped reconnect backoff: how many attempts in a row proved nothing (each waits longer, up to the
 * policy's cap) and the one timer of the next attempt, which is either a reconnect or, while the engine waits
 * for a fresh token, asking for the refresh again. Confined to the actor.
 */
final class ReconnectSchedule {
  private final ReconnectPolicy policy;
  private final Scheduler actor;
  private int attempt;
  private Scheduler.Timer timer;
  /** What {@link #timer} runs when due, or null. */
  private Runnable due;

  ReconnectSchedule(ReconnectPolicy policy, Scheduler actor) {
    this.policy = policy;
    this.actor = actor;
  }

  /** Returns the attempts counted so far. */
  int attempt() {
    return attempt;
  }

  /** Starts the backoff over: a connection worked, or the app connected anew. */
  void reset() {
    attempt = 0;
  }

  /** Counts an attempt and returns the delay before it, drawn from the policy. */
  long next() {
    return policy.delayMillis(attempt++);
  }

  /** Runs {@code action} on the actor after {@code delayMillis}, replacing the timer set before. */
  void schedule(long delayMillis, final Runnable action) {
    cancel();
    due = action;
    timer = actor.schedule(() -> {
      timer = null;
      due = null;
      action.run();
    }, delayMillis);
  }

  /** Returns whether an action waits for its time. */
  boolean pending() {
    return due != null;
  }

  /** Runs the pending action now instead of at its time; returns false when none is pending. */
  boolean runNow() {
    Runnable action = due;
    if (action == null) return false;
    cancel();
    action.run();
    return true;
  }

  /** Cancels the pending action, if any. */
  void cancel() {
    if (timer != null) timer.cancel();
    timer = null;
    due = null;
  }
}
