package dev.svc.chat.reference.store;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the H2 file near the size of its live data. With {@code WRITE_DELAY=0} every commit is a chunk of its
 * own, and a chunk stays on disk while one of its pages is live; H2 compacts only from its background writer,
 * which runs only with a write delay, and when it closes. So every {@link #INTERVAL_MILLIS} this runs H2's own
 * file compaction ({@link MVStore#compactFile(int)}, what closing does for {@link #BUDGET_MILLIS}: it rewrites
 * the live pages of sparse chunks, moves chunks into the holes, syncing the file before it overwrites one, and
 * truncates the file), then commits what it rewrote. It holds the lock that each transaction of the
 * {@link Database} holds: no transaction is between its first change and its commit meanwhile, so a chunk it
 * writes holds no half of one, and a kill during a run leaves the file as its last commit left it.
 * {@code compactFile} sets H2's retention time to 0 (dead chunks reused at once); the time is set back after
 * each run, so that between runs a chunk is overwritten only 45 s after it died (H2's default).
 *
 * <p>The server does not run it ({@link Database#h2(java.nio.file.Path)}): run every 20 ms under
 * {@code H2KillLoopTest}, one kill in 313 left a file H2 could not open ("File corrupted while reading
 * record"). It stays for that test and for the next attempt.
 */
final class H2Compaction implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(H2Compaction.class);
    /** How often compaction would run in the server. */
    static final long INTERVAL_MILLIS = 1_000;
    /** How long a run compacts (transactions wait meanwhile); it ends after the step that went over. */
    static final int BUDGET_MILLIS = 50;

    private final MVStore store;
    private final Lock transactions;
    private final ScheduledExecutorService scheduler;

    private H2Compaction(MVStore store, Lock transactions, long intervalMillis) {
        this.store = store;
        this.transactions = transactions;
        if (intervalMillis > 0) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "svc-ref-h2-compact");
                t.setDaemon(true);
                return t;
            });
            scheduler.scheduleWithFixedDelay(this::runQuietly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        } else {
            scheduler = null;
        }
    }

    /** Compacts {@code store} every {@code intervalMillis} (never when not positive) holding {@code transactions}. */
    static H2Compaction start(MVStore store, Lock transactions, long intervalMillis) {
        return new H2Compaction(store, transactions, intervalMillis);
    }

    private void runQuietly() {
        try {
            run();
        } catch (RuntimeException e) {
            LOG.warn("could not compact the H2 file: {}", e.toString());
        }
    }

    /** Runs one compaction now; returns how long the transactions waited for it, in milliseconds. */
    long run() {
        transactions.lock();
        long start = System.nanoTime();
        try {
            if (store.isClosed()) {
                return 0;
            }
            int retention = store.getRetentionTime();
            try {
                store.compactFile(BUDGET_MILLIS);
            } finally {
                store.setRetentionTime(retention);
            }
            store.commit();
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        } finally {
            transactions.unlock();
        }
    }

    /** Stops the scheduled runs, waiting for one in progress (not interrupted: H2 would close its file). */
    @Override
    public void close() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
