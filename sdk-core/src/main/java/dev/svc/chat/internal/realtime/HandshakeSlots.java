package dev.svc.chat.internal.realtime;

import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;

import dev.svc.chat.internal.util.Scheduler;

/**
 * Limits the WebSocket handshakes in flight in this process. A fleet of clients that connect at once (a bot
 * fleet starting, or every client of a process reconnecting when the server is back) then comes in waves the
 * server can answer, instead of a storm in which handshakes time out and retry and the storm goes on. A
 * connection takes a slot before it opens its socket, and its handshake deadline starts only then; it gives
 * the slot back once the gateway accepted it or it ended. One client never waits: the limit is far above
 * what one client uses.
 */
final class HandshakeSlots {
  /** Handshakes in flight per process (chosen: well above a desktop's or a phone's few clients). */
  static final int LIMIT = 64;
  static final HandshakeSlots SHARED = new HandshakeSlots(LIMIT);

  private final ArrayDeque<BooleanSupplier> waiting = new ArrayDeque<>();
  private int free;

  HandshakeSlots(int limit) {
    this.free = limit;
  }

  /**
   * Gives {@code conn} a slot and returns true when one is free; otherwise returns false and, once a later
   * {@link #release} hands a slot over, runs {@code open} on {@code actor}
   * ({@link GatewayConnection#slotGranted}: the slot comes back if the connection was dropped meanwhile).
   */
  boolean tryAcquire(final GatewayConnection conn, final Scheduler actor, final Runnable open) {
    if (!tryAcquireOr(() -> conn.slotGranted(this, actor, open))) return false;
    conn.holdSlot(this);
    return true;
  }

  /**
   * Takes a slot and returns true when one is free; otherwise queues {@code grant}, which a later
   * {@link #release} runs (on the releasing thread) with the slot handed over, and returns false. The grant
   * returns whether it kept the slot; when it did not, the slot goes on to the next waiter.
   */
  boolean tryAcquireOr(BooleanSupplier grant) {
    synchronized (this) {
      if (free == 0) {
        waiting.add(grant);
        return false;
      }
      free--;
      return true;
    }
  }

  /**
   * Gives a slot back: to the longest waiting grant that keeps it, if any. A loop, not a recursion: a grant
   * that does not keep the slot (its connection was dropped while it waited) returns false instead of
   * releasing again, so a long queue of dropped waiters cannot overflow the stack.
   */
  void release() {
    while (true) {
      BooleanSupplier next;
      synchronized (this) {
        next = waiting.poll();
        if (next == null) {
          free++;
          return;
        }
      }
      if (next.getAsBoolean()) return;
    }
  }

  /** Returns the free slots (tests). */
  synchronized int free() {
    return free;
  }
}
