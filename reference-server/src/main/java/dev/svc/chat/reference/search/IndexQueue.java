package dev.svc.chat.reference.search;

import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.store.Store;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index writes of sends, edits, reactions and deletes, taken off the request thread: the store's write
 * only enqueues the message's new state, and the search thread {@link #drain drains} the queue into the index
 * in batches (every {@link #DRAIN_MILLIS} ms), as does every search before it asks the index, so that a message
 * acknowledged to its sender is found by the next search on this server.
 *
 * <p>Memory is bounded: at most {@code capacity} states wait. A write that finds the queue full is not lost:
 * its room is marked with the rev below it, and the next drain reads the room's changes above that rev from the
 * store (their latest states, as the start's {@link IndexCatchUp} does). Order per message holds whatever the
 * path: the index keeps a message's newest rev only ({@link IndexedRevs}), and the store's latest state is
 * never older than a queued one.
 */
public final class IndexQueue implements SearchIndex {

    /** How often the search thread drains the queue. */
    public static final long DRAIN_MILLIS = 100;
    /** The states that may wait by default: a few seconds of sends at the server's highest rates. */
    public static final int DEFAULT_CAPACITY = 16_384;

    private static final Logger LOG = LoggerFactory.getLogger(IndexQueue.class);
    private static final int BATCH = 1_024;
    private static final int PAGE = 500;

    private record Pending(String tenantId, Message message) {
    }

    /** A room whose writes above {@code since} may have found the queue full. */
    private record Overflow(String tenantId, String roomId, long since) {
    }

    private final SearchIndex index;
    private final BlockingQueue<Pending> queue;
    private final Map<String, Overflow> overflows = new ConcurrentHashMap<>();
    private final AtomicLong overflowed = new AtomicLong();
    private final Object draining = new Object();
    private volatile Store store;

    /** Queues the writes to {@code index}, at most {@code capacity} at a time. */
    public IndexQueue(SearchIndex index, int capacity) {
        this.index = index;
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    /**
     * Sets the store whose changes a drain reads for the rooms whose writes found the queue full (the store is
     * made with this queue as its writes, so it comes after).
     */
    public void readFrom(Store store) {
        this.store = store;
    }

    @Override
    public void written(String tenantId, Message message) {
        if (!queue.offer(new Pending(tenantId, message))) {
            overflowed.incrementAndGet();
            // The message's rev is above since, so the room's changes above it hold this state or a newer one.
            mark(tenantId, message.roomId(), message.rev() - 1);
        }
    }

    /** Marks the room's changes above {@code since} for the next drain (the lowest mark of the room wins). */
    private void mark(String tenantId, String roomId, long since) {
        overflows.merge(LuceneIndex.roomKey(tenantId, roomId), new Overflow(tenantId, roomId, since),
                (a, b) -> a.since() <= b.since() ? a : b);
    }

    /**
     * Writes every queued state to the index, then the changes of every room marked by a full queue; returns the
     * number of states written. One drain at a time (the search thread's, or a search's).
     */
    public int drain() {
        synchronized (draining) {
            int written = 0;
            List<Pending> batch = new ArrayList<>(Math.min(BATCH, queue.size() + 1));
            while (queue.drainTo(batch, BATCH) > 0) {
                for (Pending p : batch) {
                    index.written(p.tenantId(), p.message());
                }
                written += batch.size();
                batch.clear();
            }
            Iterator<String> rooms = overflows.keySet().iterator();
            while (rooms.hasNext()) {
                Overflow room = overflows.remove(rooms.next());
                if (room != null) {
                    written += catchUp(room);
                }
            }
            return written;
        }
    }

    /** {@link #drain} for the search thread, which a failure must not stop (its next run tries again). */
    public void drainQuietly() {
        drainQuietly(() -> {
        });
    }

    /**
     * As {@link #drainQuietly()}, then runs {@code after} before any other drain: a commit there records the revs
     * of a whole drain, never those of a search's drain half done (its queued states written, not yet the rooms
     * its full queue marked, which a kill would then leave out of the catch-up).
     */
    public void drainQuietly(Runnable after) {
        try {
            synchronized (draining) {
                drain();
                after.run();
            }
        } catch (RuntimeException e) {
            LOG.warn("search index: a drain of queued writes or what follows it failed: {}", e.toString());
        }
    }

    private int catchUp(Overflow room) {
        Store source = store;
        if (source == null) {
            throw new IllegalStateException("the index queue overflowed before its store was set");
        }
        long since = room.since();
        int written = 0;
        while (true) {
            ChangesPage page;
            try {
                page = source.changes(room.tenantId(), room.roomId(), since, PAGE);
            } catch (RuntimeException e) {
                if (source.room(room.tenantId(), room.roomId()).isEmpty()) {
                    return written; // the room was deleted since: nothing of it is left to find
                }
                // Marked again, so that the next drain tries again: never an index write lost.
                mark(room.tenantId(), room.roomId(), since);
                throw e;
            }
            index.writtenAll(room.tenantId(), page.messages());
            for (Message message : page.messages()) {
                since = Math.max(since, message.rev());
            }
            written += page.messages().size();
            if (!page.hasMore() || page.messages().isEmpty()) {
                return written;
            }
        }
    }

    /** Returns the number of writes that found the queue full (their rooms were read from the store instead). */
    public long overflowed() {
        return overflowed.get();
    }

    /** Asks the index after draining the queue: every write that returned before this search is found. */
    @Override
    public List<Hit> search(Request request) {
        drain();
        return index.search(request);
    }

    /** Drains the queue; the index itself is closed by its owner. */
    @Override
    public void close() {
        drain();
    }
}
