package dev.svc.chat.internal.realtime;

import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionStateChange;

/** What the engine reports to its client. Invoked on the actor thread: implementations must only hand off. */
public interface EngineListener {
  /** The connection state changed. */
  void onStateChange(ConnectionStateChange change);

  /**
   * A connection was accepted: a first connect, a reconnect, or the new connection of a token refresh;
   * {@code positions} says where its delivery starts (contract section 8; not given by every service).
   */
  default void onConnectionAccepted(StartPositions positions) {
  }

  /**
   * The token expired and the engine waits, RECONNECTING, for a fresh one: the client refreshes it and calls
   * {@link RealtimeEngine#tokenChanged}, {@link RealtimeEngine#refreshFailed} (asked again after the backoff)
   * or {@link RealtimeEngine#refreshRefused}. Only for engines that refresh.
   */
  default void onTokenExpired() {
  }

  /** The engine met a problem and handled it (a malformed frame, an unknown acknowledgement). */
  default void onClientError(ClientError error) {
  }

  /** The gateway sent an event on the default namespace, decoded (an event the SDK does not know is not). */
  void onEvent(EventDecoder.Event<?> event);

  /**
   * Returns whether the listener restores the events the inbound gate sheds when handlers fall far behind
   * (new messages, changes, receipts: recovery reads them from the history); false keeps every event, and
   * then a slow handler holds the socket's reader for as long as it is behind.
   */
  default boolean restoresShedEvents() {
    return false;
  }

  /**
   * The inbound gate shed events (see {@link #restoresShedEvents}), on the actor: every room is to be caught
   * up from the history. Invoked again for events shed after this call.
   */
  default void onEventsShed() {
  }

  /**
   * A batch of inbound frames starts ({@code true}) or ended ({@code false}), on the actor: what the frames
   * deliver in between may be handed to the app as one batch.
   */
  default void onInboundBatch(boolean start) {
  }

  /**
   * Asks for {@code wake} to run (on any thread) once the events waiting for their handlers fall below
   * {@link InboundGate#LOW_WATER}; returns false, and never runs it, when they are below it already or the
   * listener cannot tell. How the socket's reader, held by the inbound gate, resumes as soon as the handlers
   * caught up rather than at its next poll.
   */
  default boolean wakeWhenCaughtUp(Runnable wake) {
    return false;
  }
}
