package dev.svc.chat.reference.gateway;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.api.WriteCallback;

/**
 * The outbound queue of one connection and its single writer. Producers (REST threads fanning out, timers,
 * the reader thread) only enqueue, so a slow or stuck client never blocks them; frames go out with Jetty's
 * asynchronous send in enqueue order, a few at a time so that Jetty can gather them into one write. A queue
 * that outgrows its bound, in frames or in bytes, means the client is not reading: the connection is
 * dropped and the client recovers missed messages by seq.
 */
final class Outbound {

    private static final Object CLOSE = new Object();
    /** Frames handed to Jetty at once (Jetty gathers up to 8 into one write); the rest wait here. */
    private static final int IN_FLIGHT = 16;
    private static final WriteCallback NOTHING = new WriteCallback() {
    };

    private final Session session;
    private final Executor executor;
    private final int limit;
    private final long byteLimit;
    private final Runnable onOverflow;

    // Guarded by this.
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private long queuedBytes;
    private boolean pumping;
    private boolean closed;

    Outbound(Session session, Executor executor, int limit, long byteLimit, Runnable onOverflow) {
        this.session = session;
        this.executor = executor;
        this.limit = limit;
        this.byteLimit = byteLimit;
        this.onOverflow = onOverflow;
    }

    /** Enqueues a text frame; returns false if the queue is closed or just overflowed. */
    boolean send(String frame) {
        boolean overflow = false;
        boolean start = false;
        long bytes = utf8Length(frame);
        synchronized (this) {
            if (closed) {
                return false;
            }
            if (queue.size() >= limit || queuedBytes + bytes > byteLimit) {
                closed = true;
                queue.clear();
                queuedBytes = 0;
                overflow = true;
            } else {
                queue.add(new Queued(frame, bytes));
                queuedBytes += bytes;
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
        queuedBytes = 0;
    }

    private void pump() {
        List<String> group = new ArrayList<>(IN_FLIGHT);
        while (true) {
            boolean close = false;
            group.clear();
            synchronized (this) {
                while (group.size() < IN_FLIGHT) {
                    Object next = queue.peek();
                    if (next == null || (next == CLOSE && !group.isEmpty())) {
                        break;
                    }
                    queue.poll();
                    if (next == CLOSE) {
                        close = true;
                        break;
                    }
                    Queued frame = (Queued) next;
                    queuedBytes -= frame.bytes; // counted once, when it was queued
                    group.add(frame.text);
                }
                if (group.isEmpty() && !close) {
                    pumping = false;
                    return;
                }
            }
            if (close) {
                // Like the official server: a close frame without a status code (the client sees 1005).
                session.close(StatusCode.NO_CODE, null);
                synchronized (this) {
                    queue.clear();
                    queuedBytes = 0;
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
            // Jetty writes them in order; only the last one's completion resumes the pump. A failure of any
            // fails the later ones too, and the last one's callback then ends the pump.
            int last = group.size() - 1;
            for (int i = 0; i < last; i++) {
                session.getRemote().sendString(group.get(i), NOTHING);
            }
            Written written = new Written();
            session.getRemote().sendString(group.get(last), written);
            if (!written.continueInline()) {
                return; // the callback resumes the pump when the write completes
            }
        }
    }

    /** Returns the UTF-8 length of {@code s} without encoding it. */
    static long utf8Length(String s) {
        long n = s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                // 2 bytes below U+0800, else 3; a surrogate pair is 4 bytes for 2 chars.
                n += c < 0x800 ? 1 : Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return n;
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

    /** A frame waiting in the queue, with its UTF-8 size. */
    private record Queued(String text, long bytes) {
    }
}
