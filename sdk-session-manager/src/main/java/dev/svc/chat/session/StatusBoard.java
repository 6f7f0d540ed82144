package dev.svc.chat.session;

import dev.svc.chat.ChatClient;
import dev.svc.chat.SerialExecutor;
import org.jspecify.annotations.Nullable;

/**
 * The status of a {@link SessionManager} and its last error, published to the app's listener in order on
 * the manager's serial callback executor. Guarded by the manager's lock.
 */
final class StatusBoard {
  private final SessionStateListener listener;
  private final SerialExecutor callbacks;
  private SessionStatus status = SessionStatus.IDLE;
  private @Nullable Throwable error;

  StatusBoard(SessionStateListener listener, SerialExecutor callbacks) {
    this.listener = listener;
    this.callbacks = callbacks;
  }

  SessionStatus status() {
    return status;
  }

  /** Returns a snapshot with {@code client} and {@code session}. */
  SessionState snapshot(@Nullable ChatClient client, @Nullable Session session) {
    return new SessionState(status, client, error, session);
  }

  /** Moves to {@code next} (its cause kept for ERROR and OFFLINE) and tells the listener. */
  void set(SessionStatus next, @Nullable Throwable cause, @Nullable ChatClient client, @Nullable Session session) {
    status = next;
    error = next == SessionStatus.ERROR || next == SessionStatus.OFFLINE ? cause : null;
    final SessionState snapshot = snapshot(client, session);
    callbacks.execute(new Runnable() {
      @Override
      public void run() {
        listener.onStateChange(snapshot);
      }
    });
  }
}
