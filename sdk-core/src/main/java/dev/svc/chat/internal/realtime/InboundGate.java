package dev.svc.chat.internal.realtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import dev.svc.chat.transport.TransportSocket;

/**
 * Backpressure for a handler slower than the stream, on the socket's reader thread. Only event frames pass
 * through {@link #admit}; control frames (the Engine.IO open, ping and close, the Socket.IO CONNECT answer,
 * DISCONNECT and acknowledgements) never wait, so a slow handler cannot hold the heartbeat or a handshake.
 *
 * <p>While more than {@link #HIGH_WATER} frames and events wait (frames queued for the actor, counted here,
 * and events not yet handled, counted by the event hub), the reader waits, so it stops reading the socket and
 * TCP pushes back on the gateway. It waits at most {@link GatewayConnection#parkLimitMillis} (a quarter of the
 * gateway's ping timeout, at most {@link #MAX_PARK_MILLIS}): past that, unless the backlog fell below
 * {@link #LOW_WATER}, it reads on and sheds the events recovery restores ({@code new-message},
 * {@code message-updated}, {@code room-read}) until the backlog is below {@link #LOW_WATER}; every other
 * event is kept. A shed is reported once ({@link #shed}) until the engine takes the report
 * ({@link #reportTaken}): recovery then catches every room up from the history, reading a page only once the
 * handlers took the one before, so memory stays bounded by the water mark, not by the burst, and nothing is
 * lost. Without recovery ({@code recoverMissedEvents(false)}) nothing is shed and the reader waits as long as
 * the backlog stays high. Per frame the check costs two atomic reads.
 *
 * <p>The waiting reader is woken as soon as the backlog falls below {@link #LOW_WATER}: by the actor when it
 * takes frames ({@link #taken}), and by the callback thread when the handlers caught up (the listener's
 * {@link EngineListener#wakeWhenCaughtUp}); it also looks again every {@link #POLL_NANOS} ns, for what counts
 * in the backlog without waking it (events held for a store write). Woken only by a poll, a reader resumed
 * up to 2 ms after a burst of 1,024 events was handled (in about 0.5 ms): the handlers then idled, and a
 * stream faster than its handlers was read at about half their speed.
 *
 * <p>While it sheds, the events it never sheds are bounded too: {@code typing} and {@code tenant-presence} are
 * superseded by the latest per room and user (per user), so the reader keeps only the latest of each until the
 * backlog is low ({@link SocketReader}); the others (call events, few in any real stream) are kept up to
 * {@link #MAX_KEPT_WHILE_SHEDDING} per flood, and past that dropped and reported once ({@link #dropped}).
 *
 * <p>A transport whose threads are shared by many sockets (the JDK's) is not to be held: there the frame is
 * deferred instead ({@link TransportSocket#deferText}), handed to {@link #admit} again every
 * {@value #DEFER_MILLIS} ms until the wait ends as above, and the socket's reading stops meanwhile.
 */
public final class InboundGate {
  /** Frames and events allowed to wait before the reader stops reading. */
  static final int HIGH_WATER = 1_024;
  /** The reader resumes once the backlog is below this; recovery reads a page only below it. */
  public static final int LOW_WATER = HIGH_WATER / 2;
  /**
   * While at least this many frames wait for the actor, the reader thread reads the events' payloads itself
   * ({@link EngineListener#readAhead}) instead of leaving them to the actor.
   */
  static final int READ_AHEAD_MARK = 256;
  /** The longest the reader waits for the handlers before it sheds: far below any heartbeat's timeout. */
  static final long MAX_PARK_MILLIS = 5_000;
  static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
  /** How long a deferred frame waits before it is admitted again (coarser than a park: no thread waits). */
  static final long DEFER_MILLIS = 10;
  /** Events neither shed nor coalesced (call events) kept while the gate sheds, per flood. */
  static final int MAX_KEPT_WHILE_SHEDDING = 256;
  /** {@link #admit}: the frame passes. */
  static final int ADMIT = 0;
  /** {@link #admit}: the frame is dropped (see {@link #shed}). */
  static final int SHED = 1;
  /** {@link #admit}: the transport hands the frame to the reader again later. */
  static final int DEFERRED = 2;

  /** Events delivered but not yet handled. */
  private final IntSupplier backlog;
  /** The actor's clock (virtual in tests). */
  private final LongSupplier clock;
  /** Whether events may be shed (recovery restores them). */
  private final boolean sheds;
  /** Text frames queued for the actor and not yet taken (a batch's frames: until the whole batch was read). */
  private final AtomicInteger frames = new AtomicInteger();
  /** Whether the reader sheds (set by a wait that timed out; cleared once the backlog is low). */
  private volatile boolean shedding;
  /** Whether a shed was reported and the engine has not taken the report yet. */
  private final AtomicBoolean reported = new AtomicBoolean();
  /** Events kept by {@link #keepWhileShedding} since the gate began to shed. */
  private final AtomicInteger keptWhileShedding = new AtomicInteger();
  /** Whether a drop past {@link #MAX_KEPT_WHILE_SHEDDING} was reported since the gate began to shed. */
  private final AtomicBoolean dropReported = new AtomicBoolean();
  /** Asks for a task to run once the events waiting for their handlers are few (false: they are already). */
  private final Predicate<Runnable> wakes;
  /** The reader thread waiting in {@link #admit}, or null. */
  private volatile Thread waiter;
  /** Whether {@link #wake} is asked for and has not run yet. */
  private volatile boolean wakeArmed;
  private final Runnable wake = this::wake;
  /** How long the waiting reader parks at most before it looks again. */
  private final long pollNanos;

  /** Creates a gate whose waiting reader is woken by {@link #taken} and its poll alone (tests). */
  InboundGate(IntSupplier backlog, LongSupplier clock, boolean sheds) {
    this(backlog, clock, sheds, task -> false, POLL_NANOS);
  }

  /**
   * Creates a gate; {@code backlog} counts the events not yet handled, and {@code wakes} asks for a task to run
   * once they fall below {@link #LOW_WATER} (see {@link EngineListener#wakeWhenCaughtUp}).
   */
  InboundGate(IntSupplier backlog, LongSupplier clock, boolean sheds, Predicate<Runnable> wakes) {
    this(backlog, clock, sheds, wakes, POLL_NANOS);
  }

  /** Creates a gate that polls every {@code pollNanos} while its reader waits (tests: a long poll). */
  InboundGate(IntSupplier backlog, LongSupplier clock, boolean sheds, Predicate<Runnable> wakes, long pollNanos) {
    this.backlog = backlog;
    this.clock = clock;
    this.sheds = sheds;
    this.wakes = wakes;
    this.pollNanos = pollNanos;
  }

  /** A frame was queued for the actor (reader thread). */
  void queued() {
    frames.incrementAndGet();
  }

  /** The actor took {@code count} queued frames. */
  void taken(int count) {
    if (count <= 0) return;
    frames.addAndGet(-count);
    Thread w = waiter;
    if (w != null && backlog() < LOW_WATER) LockSupport.unpark(w);
  }

  /** Returns how many frames wait for the actor. */
  int frames() {
    return frames.get();
  }

  /** Returns how many frames and events wait. */
  int backlog() {
    return frames.get() + backlog.getAsInt();
  }

  /** Returns whether the gate sheds (any thread): events it never sheds are then bounded. */
  boolean shedding() {
    return shedding;
  }

  /** Returns whether only the latest event of this name per room and user matters: typing and presence. */
  static boolean coalescible(String eventName) {
    return "typing".equals(eventName) || "tenant-presence".equals(eventName);
  }

  /**
   * While the gate sheds, returns whether one more event it neither sheds nor coalesces may be kept: true up to
   * {@link #MAX_KEPT_WHILE_SHEDDING} per flood.
   */
  boolean keepWhileShedding() {
    return keptWhileShedding.incrementAndGet() <= MAX_KEPT_WHILE_SHEDDING;
  }

  /** An event past the bound was dropped; returns true for the first since the gate began to shed. */
  boolean dropped() {
    return dropReported.compareAndSet(false, true);
  }

  /** Returns whether an event of this name may be shed: recovery restores what it carried. */
  static boolean sheddable(String eventName) {
    return "new-message".equals(eventName) || "message-updated".equals(eventName) || "room-read".equals(eventName);
  }

  /**
   * Admits an event frame of {@code conn} on its reader thread: returns {@link #ADMIT} at once while the
   * backlog is below the high water mark, else waits (see the class comment): parks, or returns
   * {@link #DEFERRED} when {@code socket} hands the frame over again later. Returns {@link #SHED} when the
   * frame is to be dropped (then {@link #shed} says whether to report it). Never called on the actor or the
   * callback executor. The wait is {@code conn}'s own: a connection abandoned with a frame deferred leaves no wait
   * (nor its deadline) to the next, and two readers during a handover share no wait state.
   */
  int admit(GatewayConnection conn, TransportSocket socket, boolean sheddable) {
    if (shedding) {
      if (backlog() >= LOW_WATER) return sheddable ? SHED : ADMIT;
      shedding = false;
      keptWhileShedding.set(0);
      dropReported.set(false);
    }
    if (!conn.gateWaiting) {
      if (backlog() < HIGH_WATER) return ADMIT;
      conn.gateWaiting = true;
      conn.gateDeadline = clock.getAsLong() + conn.parkLimitMillis;
    }
    while (!conn.abandoned && backlog() >= LOW_WATER) {
      if (sheds && clock.getAsLong() >= conn.gateDeadline) {
        conn.gateWaiting = false;
        shedding = true;
        return sheddable ? SHED : ADMIT;
      }
      if (socket.deferText(DEFER_MILLIS)) return DEFERRED;
      await();
      if (Thread.currentThread().isInterrupted()) break;
    }
    conn.gateWaiting = false;
    return ADMIT;
  }

  /**
   * Parks the reader until the backlog falls below {@link #LOW_WATER} (woken by {@link #taken} or the handlers)
   * or for its poll at most. The waiter is published before the backlog is read again, and the wakers
   * lower the count before they read the waiter: one of the two sees the other.
   */
  private void await() {
    Thread me = Thread.currentThread();
    waiter = me;
    try {
      if (!wakeArmed && backlog.getAsInt() >= LOW_WATER) {
        wakeArmed = true;
        if (!wakes.test(wake)) wakeArmed = false; // the handlers are caught up: the frames are what waits
      }
      if (backlog() >= LOW_WATER) LockSupport.parkNanos(this, pollNanos);
    } finally {
      waiter = null;
    }
  }

  /** The handlers caught up (a callback thread, or the reader itself): the waiting reader looks again. */
  private void wake() {
    wakeArmed = false;
    Thread w = waiter;
    if (w != null) LockSupport.unpark(w);
  }

  /** An event was shed; returns true when it is the first since the engine took the last report. */
  boolean shed() {
    return reported.compareAndSet(false, true);
  }

  /**
   * The engine took the report of a shed (on the actor, before recovery reads anything): an event shed from
   * now on is reported again, so every shed event was received before some recovery's reads began.
   */
  void reportTaken() {
    reported.set(false);
  }
}
