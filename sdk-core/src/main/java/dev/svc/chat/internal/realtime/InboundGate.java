package dev.svc.chat.internal.realtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * Backpressure for a handler slower than the stream. The socket's reader thread passes each frame through
 * {@link #admit}: while more than {@link #HIGH_WATER} frames and events wait (frames queued for the actor,
 * counted here, and events not yet handled, counted by whoever delivers them), the reader waits, so it
 * stops reading the socket and TCP pushes back on the gateway. Per frame that costs two atomic reads. Memory stays bounded by the water mark instead of the burst. If the gateway gives up on
 * the stalled client, the connection is replaced and recovery fills the gap from the service's history.
 */
final class InboundGate {
  /** Frames and events allowed to wait before the reader stops reading. */
  static final int HIGH_WATER = 1_024;
  /** The reader resumes once the backlog is below this. */
  static final int LOW_WATER = HIGH_WATER / 2;
  /**
   * While at least this many frames wait for the actor, the reader thread reads the events' payloads itself
   * ({@link EngineListener#readAhead}) instead of leaving them to the actor.
   */
  static final int READ_AHEAD_MARK = 256;
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  /** Events delivered but not yet handled. */
  private final IntSupplier backlog;
  /** Text frames queued for the actor and not yet taken. */
  private final AtomicInteger frames = new AtomicInteger();

  InboundGate(IntSupplier backlog) {
    this.backlog = backlog;
  }

  /** A frame was queued for the actor (reader thread). */
  void queued() {
    frames.incrementAndGet();
  }

  /** The actor took a queued frame. */
  void taken() {
    frames.decrementAndGet();
  }

  /** Returns how many frames wait for the actor. */
  int frames() {
    return frames.get();
  }

  /** Returns how many frames and events wait. */
  int backlog() {
    return frames.get() + backlog.getAsInt();
  }

  /**
   * Waits, on the reader thread, until the backlog is below the low water mark if it reached the high one,
   * or until {@code conn} is no longer wanted. Never called on the serial queue or the callback executor.
   */
  void admit(GatewayConnection conn) {
    if (backlog() < HIGH_WATER) return;
    while (!conn.abandoned && backlog() >= LOW_WATER) {
      LockSupport.parkNanos(POLL_NANOS);
      if (Thread.currentThread().isInterrupted()) return;
    }
  }
}
