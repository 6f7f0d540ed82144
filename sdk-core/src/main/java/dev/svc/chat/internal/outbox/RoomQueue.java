package dev.svc.chat.internal.outbox;

import java.util.ArrayDeque;

/** The FIFO queue of one room's sends in the {@link Outbox}, and its attempts under way. Confined to the actor. */
final class RoomQueue {
  final ArrayDeque<OutboxEntry> entries = new ArrayDeque<>();
  /** The attempts of this room under way (possibly of entries that have since timed out). */
  int inFlight;
  /** The route of the attempts under way. */
  SendRoute route;
  /** Whether an attempt failed with a retryable error: nothing new starts until no attempt is in flight. */
  boolean halted;
  /** The first retryable failure of the halt, for the log. */
  Throwable haltError;
  /** The longest {@code Retry-After} of the halt's failures, or -1. */
  long retryAfterMillis = -1;
  /** Whether every failure of the halt was the network's (a new connection then retries at once). */
  boolean networkOnly;

  /** Records a retryable failure of an attempt: nothing new starts until no attempt is in flight. */
  void halt(Throwable error) {
    if (!halted) {
      halted = true;
      haltError = error;
      retryAfterMillis = -1;
      networkOnly = true;
    }
    retryAfterMillis = Math.max(retryAfterMillis, SendFailures.retryAfterMillis(error));
    networkOnly &= SendFailures.isNetworkFailure(error);
  }

  /** Ends the halt, once no attempt is in flight; returns its first failure. */
  Throwable endHalt() {
    Throwable error = haltError;
    halted = false;
    haltError = null;
    return error;
  }

  /** The connection is back: a retry waiting after a network failure starts now, its backoff has done its job. */
  void connected() {
    OutboxEntry head = entries.peek();
    if (head != null && head.waitingToRetry() && head.wakeOnConnect) {
      head.retryTimer.cancel();
      head.retryTimer = null;
    }
  }

  /**
   * Returns the oldest send not under way if the route's window has room for it, else null; null too when that
   * send waits to be retried, as nothing overtakes it. A send with files to upload starts alone and holds the
   * room's later sends back until it answered: its upload may take long, and its message keeps its place.
   */
  OutboxEntry nextToStart(SendRoute route) {
    if (inFlight >= route.window()) return null;
    for (OutboxEntry e : entries) {
      if (e.inFlight) {
        if (e.uploads) return null; // a send with files is a barrier: nothing after it goes first
        continue;
      }
      if (e.uploads && inFlight > 0) return null; // it starts alone, after the room's earlier sends answered
      return e.waitingToRetry() ? null : e;
    }
    return null;
  }
}
