package dev.svc.chat.reference.gateway;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that hands room events to their targets' queues, so that a send is answered without waiting
 * for its fan-out (a room of 10,000 is 10,000 enqueues). Events run in submission order: publishers submit
 * under their room's lock, so every connection still sees a room's events in seq order. Bounded: when
 * {@link #CAPACITY} events wait, a publisher waits for room (the fan-out itself never waits on a client,
 * it only enqueues, so this wait is short). Whatever one delivery throws, {@link Error}s included, is logged and
 * counted, and the thread goes on with the next; only {@link #close} ends it. Its progress ({@link #completed},
 * {@link #hasWork}) is what {@link FanOutWatchdog} watches.
 */
final class FanOutDispatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FanOutDispatcher.class);
    /** Events waiting for the dispatcher at most (chosen). */
    static final int CAPACITY = 8192;

    private final BlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread thread;
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean closed;
    // Written by the fan-out thread only.
    private volatile long completed;
    // Deliveries submitted and not yet finished: raised before the queue holds one, lowered after it ran.
    private final AtomicLong outstanding = new AtomicLong();

    FanOutDispatcher() {
        thread = new Thread(this::run, "svc-ref-fanout");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues {@code delivery} behind every earlier one; dropped once closed (every connection is being closed).
     * An interrupt of the publisher does not drop it (the message is stored: its event must go out); the
     * interrupt is kept for the caller. Returns whether it was queued.
     */
    boolean submit(Runnable delivery) {
        boolean interrupted = false;
        outstanding.incrementAndGet();
        try {
            while (!closed) {
                try {
                    if (queue.offer(delivery, 100, TimeUnit.MILLISECONDS)) {
                        return true;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            outstanding.decrementAndGet();
            return false;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Returns the number of events waiting (bookkeeping, for tests). */
    int pending() {
        return queue.size();
    }

    /** Returns the number of deliveries finished, failed ones included. */
    long completed() {
        return completed;
    }

    /**
     * Returns whether a delivery is running, waiting, or being queued. False: every delivery submitted before this
     * call has finished, so a publisher that holds its room's lock may deliver its event itself, after all of that
     * room's earlier ones.
     */
    boolean hasWork() {
        return outstanding.get() != 0;
    }

    /** Returns the number of deliveries that threw (each logged). */
    long failures() {
        return failures.get();
    }

    /** Returns the fan-out thread (for the watchdog's report). */
    Thread thread() {
        return thread;
    }

    private void run() {
        while (!closed) {
            Runnable next;
            try {
                next = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                continue; // only close() may end the fan-out, and it sets closed first
            }
            if (next == null) {
                continue;
            }
            try {
                next.run();
            } catch (Throwable e) {
                failed(e);
            } finally {
                completed++; // one writer
                outstanding.decrementAndGet();
            }
        }
    }

    private void failed(Throwable e) {
        failures.incrementAndGet();
        try {
            LOG.error("a fan-out failed; the fan-out goes on with the next event", e);
        } catch (Throwable logging) {
            // out of memory, say: the count stands, and the next event must still go out
        }
    }

    /** Stops the thread; waiting events are dropped (every connection is being closed). */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        outstanding.addAndGet(-queue.size());
        queue.clear();
    }
}
