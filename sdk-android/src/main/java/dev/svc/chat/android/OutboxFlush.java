package dev.svc.chat.android;

import android.os.Handler;
import android.os.SystemClock;
import dev.svc.chat.ChatClient;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.session.SessionState;
import dev.svc.chat.session.SessionStatus;
import org.jspecify.annotations.Nullable;

/**
 * One run of the background flush, on the main thread: starts the installed session (as the app's return to
 * the foreground does), looks every {@link #POLL_MILLIS} whether the client is connected with no send pending,
 * and then ends, stopping the session again if the app is still in the background. It ends too when the
 * session cannot sign in ({@link SessionStatus#ERROR}: the sends wait for the app) or was taken away, and
 * after {@link #BUDGET_MILLIS}, asking to be rescheduled, before JobScheduler's own limit of ten minutes.
 *
 * <p>After a process restart the client loads the sends its user left when it connects, before its socket is
 * open, so "connected and nothing pending" is not seen before they were loaded.
 */
final class OutboxFlush {
  /** Told once when the run ends by itself. */
  interface Finish {
    /** @param reschedule whether sends are left and the job should run again */
    void finished(boolean reschedule);
  }

  /** How often the run looks at the outbox. */
  static final long POLL_MILLIS = 1000;

  /** How long a run may take before it ends and asks to be rescheduled. */
  static final long BUDGET_MILLIS = 9 * 60 * 1000L;

  private final SvcAndroid chat;
  private final Handler main;
  private final Finish finish;
  private final Runnable poll = new Runnable() {
    @Override
    public void run() {
      check();
    }
  };

  // main thread only
  private @Nullable SessionManager sessions;
  private long deadline;
  private boolean ended;

  OutboxFlush(SvcAndroid chat, Handler main, Finish finish) {
    this.chat = chat;
    this.main = main;
    this.finish = finish;
  }

  /**
   * Starts the session and the polling.
   *
   * @return false when there is nothing to run: no session manager is bound
   */
  boolean start() {
    sessions = chat.beginFlush();
    if (sessions == null) {
      ended = true;
      return false;
    }
    deadline = SystemClock.elapsedRealtime() + BUDGET_MILLIS;
    main.postDelayed(poll, POLL_MILLIS);
    return true;
  }

  /**
   * Ends the run because the system stops the job (its network went, or its time is up).
   *
   * @return whether sends are still pending, so that the job should run again
   */
  boolean stop() {
    if (ended) return false;
    boolean left = pending(sessions == null ? null : sessions.state().client());
    end();
    return left;
  }

  private void check() {
    if (ended) return;
    SessionManager s = sessions;
    if (s == null || chat.sessionManager() != s) {
      finish(false); // unbound or SvcAndroid closed meanwhile: not ours to flush any more
      return;
    }
    SessionState state = s.state();
    if (state.status() == SessionStatus.ERROR || state.status() == SessionStatus.IDLE) {
      finish(false); // not signed in, or stopped by the app: the sends wait for the app's return
      return;
    }
    if (state.status() == SessionStatus.READY && !pending(state.client())) {
      finish(false);
      return;
    }
    if (SystemClock.elapsedRealtime() >= deadline) {
      finish(true);
      return;
    }
    main.postDelayed(poll, POLL_MILLIS);
  }

  private static boolean pending(@Nullable ChatClient client) {
    return client != null && !client.pendingSends().isEmpty();
  }

  private void finish(boolean reschedule) {
    end();
    finish.finished(reschedule);
  }

  private void end() {
    ended = true;
    main.removeCallbacks(poll);
    chat.endFlush();
  }
}
