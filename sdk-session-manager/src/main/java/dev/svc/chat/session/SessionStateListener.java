package dev.svc.chat.session;

/** Receives each new {@link SessionState}: the JS SDK's {@code onStateChange}. */
public interface SessionStateListener {
  /**
   * Invoked on the manager's callback executor each time the status changes, in order.
   *
   * @param state the new state
   */
  void onStateChange(SessionState state);
}
