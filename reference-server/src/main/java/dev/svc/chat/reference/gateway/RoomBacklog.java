package dev.svc.chat.reference.gateway;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The delivery backlog of one room, as {@link SendPacing} measures it: how many of the room's readers (a user,
 * whatever number of connections it has; an API-key connection is a reader of its own) have an outbound queue
 * above the mark ({@link Outbound} counts itself here once when its queue rises to the mark during one of the
 * room's fan-outs, and uncounts itself once it drained to half the mark, or closed), compared with a threshold
 * derived from the readers the room's last fan-out reached. One member on a bad network leaves a stuck queue
 * per connection it dropped; counted by reader, it is one, so it never holds the others' sends alone. Sends
 * waiting for the room to catch up are futures here, completed when the count falls below the threshold (or by
 * their timeout).
 * Lock order: an {@link Outbound}'s monitor, then this one; this class calls nothing out while holding it but
 * the removal of its own entry from {@link SendPacing}'s map. An entry removed while idle is retired: a connection
 * that still found it (a fan-out under way) is counted in the room's current entry instead.
 */
final class RoomBacklog {

    private final SendPacing pacing;
    private final String key;

    // Guarded by this.
    private int over;
    // The queues counted, by the reader each was counted for; and per reader behind, how many of its queues are.
    private final Map<Outbound, Object> queues = new HashMap<>();
    private final Map<Object, Integer> readers = new HashMap<>();
    private int threshold = Integer.MAX_VALUE;
    private List<CompletableFuture<Void>> waiting;
    private boolean retired;

    RoomBacklog(SendPacing pacing, String key) {
        this.pacing = pacing;
        this.key = key;
    }

    /** Sets the threshold from the readers (users, API-key connections) the room's last fan-out reached. */
    synchronized void targets(int readers) {
        threshold = pacing.threshold(readers);
    }

    /** Returns the room's key. */
    String key() {
        return key;
    }

    /**
     * One more connection's queue is above the mark (called once per queue and room until {@link #drained});
     * its reader counts once however many of its queues are. Returns the entry that counted it: this one, or the
     * room's current one if this was retired meanwhile.
     */
    RoomBacklog counted(Outbound queue) {
        synchronized (this) {
            if (!retired) {
                Object reader = queue.reader();
                if (queues.put(queue, reader) == null && readers.merge(reader, 1, Integer::sum) == 1) {
                    over++;
                }
                return this;
            }
        }
        return pacing.room(key).counted(queue);
    }

    /** A counted queue drained (or closed): releases the waiting sends once under the threshold. */
    void drained(Outbound queue) {
        List<CompletableFuture<Void>> release = null;
        boolean idle;
        synchronized (this) {
            Object reader = queues.remove(queue);
            if (reader == null) {
                return;
            }
            if (readers.merge(reader, -1, Integer::sum) == 0) {
                readers.remove(reader);
                over--;
            }
            if (over < threshold && waiting != null) {
                release = waiting;
                waiting = null;
            }
            idle = over <= 0 && waiting == null;
            if (idle) {
                // under the lock: a counted() racing this goes to the room's next entry, never to a forgotten one
                retired = true;
                pacing.forget(key, this);
            }
        }
        complete(release);
    }

    /** Returns whether sends to the room are held now. */
    synchronized boolean backlogged() {
        return over >= threshold;
    }

    /** Returns the readers counted above the mark (for tests). */
    synchronized int over() {
        return over;
    }

    /**
     * Returns a future completed when the room is not backlogged: at once if it is not now, else when it
     * drains; null when it is not backlogged (the caller answers at once).
     */
    synchronized CompletableFuture<Void> waitIfBacklogged() {
        if (over < threshold) {
            return null;
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        if (waiting == null) {
            waiting = new ArrayList<>();
        }
        waiting.add(future);
        return future;
    }

    /** Releases {@code future} (its bounded wait passed), if it still waits. */
    void timedOut(CompletableFuture<Void> future) {
        synchronized (this) {
            if (waiting != null) {
                waiting.remove(future);
            }
        }
        future.complete(null);
    }

    private static void complete(List<CompletableFuture<Void>> futures) {
        if (futures != null) {
            for (CompletableFuture<Void> f : futures) {
                f.complete(null);
            }
        }
    }
}
