package dev.svc.chat.reference.gateway;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.common.WebSocketSession;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.OpCode;

/**
 * The outbound queue of one connection and its single writer. Producers (REST threads fanning out, timers,
 * the reader thread) only enqueue, so a slow or stuck client never blocks them; frames go out with Jetty's
 * asynchronous send in enqueue order. Frames are already UTF-8 ({@link OutFrame}, encoded once per fan-out);
 * what is queued goes to Jetty's core session in groups, all but the last in batch mode, so that a group
 * leaves in one socket write instead of one write per frame. Each frame is still its own WebSocket frame
 * (socket.io v4 sends one packet per frame). A queue that outgrows its bound, in frames or in bytes, means
 * the client is not reading: the connection is cut and the client recovers missed messages from history
 * (contract section 8's positions). Nothing here ever waits for the client, and nobody waits for this queue: a
 * send's answer goes whatever its readers do, so one slow reader costs the server at most this queue's bound.
 *
 * <p>A frame that finds no write under way is written by the thread that queued it when that thread holds none
 * of the gateway's locks (a failed write may close the connection on the writing thread): the reader answering
 * an event ({@link #sendNow}) and the fan-out thread for a room of a few connections ({@link #startAll}, called
 * after the delivery order's lock). A writer is woken only for larger fan-outs, for frames queued elsewhere, and
 * to resume a write the socket could not take at once; that writer then takes every frame queued meanwhile in
 * one write. So a message into a small room costs no writer wake-up while the sockets keep up.
 *
 * <p>Frames queued here while no write is parked on the socket are counted in the gateway's {@link WriteBacklog}
 * (work of the server's writers, which bounds how far senders run ahead of them); frames behind a parked write
 * are the reader's and are not.
 */
final class Outbound {

    private static final Object CLOSE = new Object();
    /** Frames handed to Jetty at once (batched into as few writes as its buffer allows); the rest wait here. */
    private static final int IN_FLIGHT = 64;
    /**
     * A fan-out to at most this many queues writes them on its own thread ({@link #startAll}): a write to a
     * writable socket does not block, and waking a writer costs more than the write (a room of two would wake two
     * writers per message).
     */
    static final int WRITTEN_IN_PLACE = 4;

    private final CoreSession core;
    private final Executor executor;
    private final int limit;
    private final long byteLimit;
    private final Runnable onOverflow;
    private final WriteBacklog backlog;

    // Guarded by this. Invariant: the backlog counts this queue's frames ({@link #frames}) unless parked.
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private int frames;
    // A write the socket could not take at once is under way: what waits behind it is the reader's, not the
    // server's work, so it is not counted in the backlog (a stuck reader must never slow a sender).
    private boolean parked;
    private long queuedBytes;
    private long framesQueued;
    private boolean pumping;
    private boolean closed;

    Outbound(Session session, Executor executor, int limit, long byteLimit, Runnable onOverflow,
             WriteBacklog backlog) {
        this(((WebSocketSession) session).getCoreSession(), executor, limit, byteLimit, onOverflow, backlog);
    }

    /** An outbound queue writing to Jetty's core session, counting into a backlog of its own. */
    Outbound(CoreSession core, Executor executor, int limit, long byteLimit, Runnable onOverflow) {
        this(core, executor, limit, byteLimit, onOverflow, new WriteBacklog());
    }

    /**
     * An outbound queue writing to Jetty's core session (what the API session's own methods call), counting its
     * frames that wait for a writer in {@code backlog} (the gateway's, shared by every connection).
     */
    Outbound(CoreSession core, Executor executor, int limit, long byteLimit, Runnable onOverflow,
             WriteBacklog backlog) {
        this.core = core;
        this.executor = executor;
        this.limit = limit;
        this.byteLimit = byteLimit;
        this.onOverflow = onOverflow;
        this.backlog = backlog;
    }

    /** Enqueues a text frame; returns false if the queue is closed or just overflowed. */
    boolean send(OutFrame frame) {
        return send(frame, null);
    }

    /**
     * Enqueues a text frame; returns false if the queue is closed or just overflowed. When {@code starts} is
     * not null, a writer this queue now needs is not woken here but this queue is added to {@code starts}:
     * a fan-out wakes a few writers for all its targets at once ({@link #startAll}) instead of one per target.
     */
    boolean send(OutFrame frame, List<Outbound> starts) {
        int queued = offer(frame);
        if (queued == STARTS) {
            if (starts != null) {
                starts.add(this);
            } else {
                schedulePump();
            }
        }
        return queued != REFUSED;
    }

    /**
     * Enqueues a text frame and, when no write is under way, writes it on the calling thread instead of waking a
     * writer (Jetty's write does not block: one the socket cannot take yet resumes on a writer when it can).
     * For a thread that holds no lock of the gateway's: the reader answering an event. Returns false as
     * {@link #send(OutFrame)}.
     */
    boolean sendNow(OutFrame frame) {
        int queued = offer(frame);
        if (queued == STARTS) {
            pump();
        }
        return queued != REFUSED;
    }

    private static final int REFUSED = -1;
    private static final int QUEUED = 0;
    private static final int STARTS = 1;

    /** Returns how many frames were ever queued here (the dev API's frames out). */
    synchronized long framesQueued() {
        return framesQueued;
    }

    /** Returns the bytes of the frames waiting here now, not yet handed to Jetty (the dev API's queued bytes). */
    synchronized long queuedBytes() {
        return queuedBytes;
    }

    /** Enqueues a frame: returns {@link #STARTS} when the queue needs its pump started, else as the names say. */
    private int offer(OutFrame frame) {
        boolean overflow = false;
        boolean start = false;
        long bytes = frame.size();
        synchronized (this) {
            if (closed) {
                return REFUSED;
            }
            if (queue.size() >= limit || queuedBytes + bytes > byteLimit) {
                closed = true;
                clear();
                overflow = true;
            } else {
                queue.add(frame);
                frames++;
                if (!parked) {
                    backlog.add(1);
                }
                framesQueued++;
                queuedBytes += bytes;
                start = !pumping;
                pumping = true;
            }
        }
        if (overflow) {
            onOverflow.run();
            return REFUSED;
        }
        return start ? STARTS : QUEUED;
    }

    /**
     * Runs the pumps of {@code queues} (each added by {@link #send(OutFrame, List)}): up to
     * {@link #WRITTEN_IN_PLACE} of them on the calling thread, more on their executor, split into at most one task
     * per processor.
     */
    static void startAll(List<Outbound> queues) {
        if (queues.isEmpty()) {
            return;
        }
        if (queues.size() <= WRITTEN_IN_PLACE) {
            for (Outbound queue : queues) {
                queue.pump();
            }
            return;
        }
        int ways = Math.min(queues.size(), Math.max(1, Runtime.getRuntime().availableProcessors()));
        int per = (queues.size() + ways - 1) / ways;
        for (int from = 0; from < queues.size(); from += per) {
            List<Outbound> chunk = queues.subList(from, Math.min(queues.size(), from + per));
            try {
                queues.get(0).executor.execute(() -> {
                    for (Outbound queue : chunk) {
                        queue.pump();
                    }
                });
            } catch (RejectedExecutionException e) {
                for (Outbound queue : chunk) {
                    queue.abort(); // shutting down
                }
            }
        }
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
    void abort() {
        synchronized (this) {
            closed = true;
            clear();
        }
    }

    /** Empties the queue and uncounts its frames (under this). */
    private void clear() {
        queue.clear();
        queuedBytes = 0;
        if (!parked) {
            backlog.remove(frames);
        }
        frames = 0;
    }

    /** A write is left under way on the socket: the frames behind it are the reader's until it completes. */
    private synchronized void park() {
        parked = true;
        backlog.remove(frames);
    }

    /** The socket took the write under way: the frames behind it are the server's work again. */
    private synchronized void unpark() {
        parked = false;
        backlog.add(frames);
    }

    private void pump() {
        // grown as frames wait (up to IN_FLIGHT): a pump usually takes one frame, and a list sized for 64 was
        // most of the bytes a fan-out allocates per target
        List<OutFrame> group = new ArrayList<>(4);
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
                    OutFrame frame = (OutFrame) next;
                    queuedBytes -= frame.size();
                    frames--;
                    group.add(frame);
                }
                if (!parked) {
                    backlog.remove(group.size());
                }
                if (group.isEmpty() && !close) {
                    pumping = false;
                }
            }
            if (group.isEmpty() && !close) {
                return;
            }
            if (close) {
                // Like the official server: a close frame without a status code (the client sees 1005).
                core.close(StatusCode.NO_CODE, null, Callback.NOOP);
                synchronized (this) {
                    clear();
                    pumping = false;
                }
                return;
            }
            if (!core.isOutputOpen()) {
                abort();
                synchronized (this) {
                    pumping = false;
                }
                return;
            }
            // Jetty writes them in order; all but the last are batched (gathered in its buffer), the last one
            // flushes the batch, and only its completion resumes the pump. A failure of any fails the later
            // ones too, and the last one's callback then ends the pump.
            int last = group.size() - 1;
            for (int i = 0; i < last; i++) {
                core.sendFrame(new Frame(OpCode.TEXT, group.get(i).payload()), Callback.NOOP, true);
            }
            Written written = new Written();
            core.sendFrame(new Frame(OpCode.TEXT, group.get(last).payload()), written, false);
            if (!written.continueInline()) {
                return; // the callback resumes the pump when the write completes
            }
        }
    }

    /**
     * Tells whether a write completed during {@code sendFrame} (then this thread keeps pumping, avoiding
     * recursion) or later (then the callback restarts the pump on the executor).
     */
    private final class Written implements Callback {
        private static final int PENDING = 0;
        private static final int HANDED_OFF = 1;
        private static final int DONE = 2;
        private final AtomicInteger state = new AtomicInteger(PENDING);

        boolean continueInline() {
            if (state.get() == DONE) {
                return true; // the usual case: the socket took the write at once
            }
            // Parked before the hand-off, so that the callback's unpark always comes after this park.
            park();
            if (state.compareAndSet(PENDING, HANDED_OFF)) {
                return false;
            }
            unpark();
            return true;
        }

        @Override
        public void succeeded() {
            if (!state.compareAndSet(PENDING, DONE)) {
                unpark();
                schedulePump();
            }
        }

        @Override
        public void failed(Throwable x) {
            abort();
            synchronized (Outbound.this) {
                parked = false;
                pumping = false;
            }
        }
    }
}
