package dev.svc.chat.reference.gateway;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Paces senders by their room's delivery backlog. A send is stored and fanned out at once whatever happens
 * here; only its answer may wait. While a room's readers keep up, the answer goes at once. When the room
 * is backlogged, that is when at least {@link #threshold} of the readers its last fan-out reached (users, each
 * counted once whatever number of connections it has, and API-key connections) have an outbound queue of
 * {@link #mark} frames or more (a quarter of them, and never fewer than two, so one slow reader alone, such as
 * a member on a cutting network with a stuck queue per dropped connection, never holds a room), the answer is
 * held, asynchronously (no request thread waits), until
 * fewer are (a queue counts again once it drained to half the mark) or {@link #maxWait} passed. A sender with
 * a few requests in flight then sends at the pace its room reads instead of filling the queues; a connection
 * that does not read at all is still cut at its queue's hard limit, which uncounts it. Answering late loses
 * and refuses nothing.
 *
 * <p>Measured on this node only: in a cluster, a send is paced by the members connected to the node it was
 * sent to.
 */
public final class SendPacing {

    /** Frames queued for a connection (beyond what its writer has in flight) that count it as behind (chosen). */
    public static final int DEFAULT_MARK = 16;
    /** The longest a send's answer is held (chosen). */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(1);
    /** Pacing that never holds an answer (the flag turned off). */
    static final SendPacing OFF = new SendPacing(false, DEFAULT_MARK, DEFAULT_MAX_WAIT, null, Runnable::run);

    private static final CompletableFuture<Void> NOW = CompletableFuture.completedFuture(null);

    private final boolean enabled;
    private final int mark;
    private final Duration maxWait;
    private final Timer timer;
    private final Executor release;
    private final Map<String, RoomBacklog> rooms = new ConcurrentHashMap<>();

    /** Schedules a bounded wait's end. */
    @FunctionalInterface
    interface Timer {
        /** Runs {@code task} after {@code delay}; returns a handle to cancel it, or null. */
        Future<?> schedule(Runnable task, Duration delay);
    }

    /**
     * Pacing that holds answers at {@code mark}, at most {@code maxWait} ({@code timer} ends the wait), and
     * answers a held send on {@code release}: never on the thread that saw the room catch up (a writer, the
     * fan-out thread or the timer), which must not wait on the sender's HTTP connection.
     */
    SendPacing(boolean enabled, int mark, Duration maxWait, Timer timer, Executor release) {
        if (mark < 2 || maxWait.isNegative()) {
            throw new IllegalArgumentException("mark must be at least 2 and the wait not negative");
        }
        this.enabled = enabled;
        this.mark = mark;
        this.maxWait = maxWait;
        this.timer = timer;
        this.release = release;
    }

    /** Pacing with the default mark and wait, its timeouts on {@code scheduler}. */
    static SendPacing on(ScheduledExecutorService scheduler) {
        return new SendPacing(true, DEFAULT_MARK, DEFAULT_MAX_WAIT, (task, delay) -> {
            try {
                return scheduler.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                task.run(); // shutting down: release at once
                return null;
            }
        }, ForkJoinPool.commonPool());
    }

    /** Returns whether answers may be held. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Returns a future completed when the answer to a send just stored in the room may go: already complete
     * unless the room is backlogged, else once it caught up or the bounded wait passed. Never fails.
     */
    public CompletableFuture<Void> whenRoomKeepsUp(String tenantId, String roomId) {
        if (!enabled) {
            return NOW;
        }
        RoomBacklog room = rooms.get(FanOut.key(tenantId, roomId));
        if (room == null) {
            return NOW;
        }
        CompletableFuture<Void> held = room.waitIfBacklogged();
        if (held == null) {
            return NOW;
        }
        Future<?> timeout = timer.schedule(() -> room.timedOut(held), maxWait);
        if (timeout != null) {
            // Released early: the timeout leaves the timer's queue at once.
            held.whenComplete((done, failure) -> timeout.cancel(false));
        }
        return held.thenApplyAsync(done -> done, release);
    }

    /** The queue length at which a connection counts as behind. */
    int mark() {
        return mark;
    }

    /** The queue length at which a counted connection counts as caught up again. */
    int lowMark() {
        return mark / 2;
    }

    /** Readers of a room of {@code readers} that must be behind for its sends to be held. */
    int threshold(int readers) {
        return Math.max(2, (readers + 3) / 4);
    }

    /** Returns the backlog of a room (made when one of its fan-outs finds a connection behind). */
    RoomBacklog room(String key) {
        return rooms.computeIfAbsent(key, k -> new RoomBacklog(this, k));
    }

    /** Returns whether the room is backlogged now (for tests). */
    boolean backlogged(String tenantId, String roomId) {
        RoomBacklog room = rooms.get(FanOut.key(tenantId, roomId));
        return room != null && room.backlogged();
    }

    /** Drops a room's backlog that has nothing counted and nothing waiting. */
    void forget(String key, RoomBacklog room) {
        rooms.remove(key, room);
    }

    /** Returns the number of rooms with a backlog entry (bookkeeping, for tests). */
    int rooms() {
        return rooms.size();
    }
}
