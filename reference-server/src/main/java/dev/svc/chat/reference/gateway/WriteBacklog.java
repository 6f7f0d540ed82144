package dev.svc.chat.reference.gateway;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's own write work not yet done, in frames, across the gateway: room events waiting for the fan-out
 * thread (counted by their rooms' member counts) and frames queued on connections whose writer is due (its pump
 * scheduled or running). A publisher of a room event {@linkplain #awaitRoom waits} while it is over its bound,
 * so that a server whose writers cannot keep up with its senders (both on the same cores) slows the senders'
 * answers instead of queueing without limit: a message waits in a queue a few messages long, and a reader that
 * reads keeps its connection. It is never a reader's to fill: frames queued behind a write that the reader's
 * socket has not taken are not counted ({@link Outbound} uncounts them while its write is parked on the socket),
 * so a slow or stuck reader never slows a sender; its own queue's bound cuts it, and it recovers from history.
 */
final class WriteBacklog {

    /** Frames of write work the server may have ahead before a publisher waits, at least (chosen). */
    static final long DEFAULT_BOUND = 512;
    /**
     * Messages of its room's size that may be ahead of a publisher's (chosen): a message waits behind at most about
     * that many, and a connection's write carries up to that many frames when the writers are behind.
     */
    static final long MESSAGES_AHEAD = 32;
    /** The most frames ahead whatever the room's size (a room of 10,000 would allow 320,000). */
    static final long MOST = 65_536;
    /** How often a waiting publisher looks again when its bound is above the one that wakes it. */
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The longest one publisher waits (a safety net: the work it waits for is the server's own, at CPU speed). */
    static final long DEFAULT_MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final long bound;
    private final long maxWaitNanos;
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong waits = new AtomicLong();
    private final Object roomMade = new Object();
    private volatile int waiting;

    WriteBacklog() {
        this(DEFAULT_BOUND, DEFAULT_MAX_WAIT_NANOS);
    }

    WriteBacklog(long bound, long maxWaitNanos) {
        this.bound = bound;
        this.maxWaitNanos = maxWaitNanos;
    }

    /** Counts {@code n} frames of work ahead. */
    void add(long n) {
        if (n != 0) {
            frames.addAndGet(n);
        }
    }

    /**
     * Uncounts {@code n} frames (written, handed to a parked write, or dropped); wakes waiters once under the
     * smallest bound (a waiter of a larger room's bound also looks again every {@link #RECHECK_NANOS}).
     */
    void remove(long n) {
        if (n == 0) {
            return;
        }
        long after = frames.addAndGet(-n);
        if (waiting > 0 && after <= bound) {
            synchronized (roomMade) {
                roomMade.notifyAll();
            }
        }
    }

    /** Returns the frames of work counted now. */
    long frames() {
        return frames.get();
    }

    /** Returns how many publishers had to wait (each wait counted once). */
    long waits() {
        return waits.get();
    }

    /**
     * Returns once the work ahead is at most the bound of a room of {@code members} ({@link #MESSAGES_AHEAD} of its
     * messages, at least the backlog's bound, at most {@link #MOST}), or after the longest wait. Never call it from
     * a thread whose work is counted here (a writer, the fan-out thread): it would wait for itself, up to that
     * longest wait. An interrupt ends the wait and is kept for the caller.
     */
    void awaitRoom(int members) {
        long roomBound = Math.max(bound, Math.min(MOST, MESSAGES_AHEAD * members));
        if (frames.get() <= roomBound) {
            return;
        }
        waits.incrementAndGet();
        long deadline = System.nanoTime() + maxWaitNanos;
        synchronized (roomMade) {
            waiting++;
            try {
                while (frames.get() > roomBound) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    TimeUnit.NANOSECONDS.timedWait(roomMade, roomBound > bound ? Math.min(left, RECHECK_NANOS) : left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                waiting--;
            }
        }
    }
}
