package dev.svc.chat.reference.gateway;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.api.WriteCallback;

/**
 * The outbound queue of one connection and its single writer. Producers (REST threads fanning out, timers,
 * the reader thread) only enqueue, so a slow or stuck client never blocks them; frames go out one at a
 * time with Jetty's asynchronous send, in enqueue order. A queue that outgrows its bound means the client
 * is not reading: the connection is dropped and the client recovers missed messages by seq.
 */
final class Outbound {

    private static final Object CLOSE = new Object();

    private final Session session;
    private final Executor executor;
    private final int limit;
    private final Runnable onOverflow;

    // Guarded by this.
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private boolean pumping;
    private boolean closed;

    Outbound(Session session, Executor executor, int limit, Runnable onOverflow) {
        this.session = session;
        this.executor = executor;
        this.limit = limit;
        this.onOverflow = onOverflow;
    }

    /** Enqueues a text frame; returns false if the queue is closed or just overflowed. */
    boolean send(String frame) {
        boolean overflow = false;
        boolean start = false;
        synchronized (this) {
            if (closed) {
                return false;
            }
            if (queue.size() >= limit) {
                closed = true;
                queue.clear();
                overflow = true;
            } else {
                queue.add(frame);
                start = !pumping;
                pumping = true;
            }
        }
        if (overflow) {
            onOverflow.run();
            return false;
        }
        if (start) {
            schedulePump();
        }
        return true;
    }

    /** Closes the WebSocket once every frame enqueued so far is written; later frames are refused. */
    void closeAfterFlush() {
        boolean start;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            queue.add(CLOSE);
            start = !pumping;
            pumping = true;
        }
        if (start) {
            schedulePump();
        }
    }

    private void schedulePump() {
        try {
            executor.execute(this::pump);
        } catch (RejectedExecutionException e) {
            // The server is shutting down; the connection is about to be closed anyway.
            abort();
        }
    }

    /** Drops every pending frame and refuses later ones (the connection is closing or closed). */
    synchronized void abort() {
        closed = true;
        queue.clear();
    }

    private void pump() {
        while (true) {
            Object next;
            synchronized (this) {
                next = queue.poll();
                if (next == null) {
                    pumping = false;
                    return;
                }
            }
            if (next == CLOSE) {
                // Like the official server: a close frame without a status code (the client sees 1005).
                session.close(StatusCode.NO_CODE, null);
                synchronized (this) {
                    queue.clear();
                    pumping = false;
                }
                return;
            }
            if (!session.isOpen()) {
                abort();
                synchronized (this) {
                    pumping = false;
                }
                return;
            }
            Written written = new Written();
            session.getRemote().sendString((String) next, written);
            if (!written.continueInline()) {
                return; // the callback resumes the pump when the write completes
            }
        }
    }

    /**
     * Tells whether a write completed during {@code sendString} (then this thread keeps pumping, avoiding
     * recursion) or later (then the callback restarts the pump on the executor).
     */
    private final class Written implements WriteCallback {
        private static final int PENDING = 0;
        private static final int HANDED_OFF = 1;
        private static final int DONE = 2;
        private final AtomicInteger state = new AtomicInteger(PENDING);

        boolean continueInline() {
            return !state.compareAndSet(PENDING, HANDED_OFF);
        }

        @Override
        public void writeSuccess() {
            if (!state.compareAndSet(PENDING, DONE)) {
                schedulePump();
            }
        }

        @Override
        public void writeFailed(Throwable x) {
            abort();
            synchronized (Outbound.this) {
                pumping = false;
            }
        }
    }
}
