package dev.svc.chat.reference.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the H2 file near the size of its live data. With {@code WRITE_DELAY=0} every commit is a chunk of its
 * own, and a chunk stays on disk while one of its pages is live (a leaf of an index that no later commit
 * touched); H2 compacts only from its background writer, which runs only with a write delay. So this rewrites
 * the live pages of the emptiest chunks itself ({@link MVStore#compact(int, int)}, what H2's writer does), a
 * few hundred kilobytes at a time, every {@link #INTERVAL_MILLIS} and more often under more commits. A rewrite
 * is an ordinary copy-on-write commit: it changes no data, and a process killed during one reopens on the last
 * complete chunk like after any commit. A chunk left without live pages is reused after H2's retention time
 * (45 s), which stays as it is: a newer chunk may still be in the disk's write buffers until then.
 */
final class H2Compaction implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(H2Compaction.class);
    /** How often compaction runs. */
    static final long INTERVAL_MILLIS = 1_000;
    /** Chunks are rewritten while their live pages fill less of them than this, in percent. */
    static final int TARGET_FILL_PERCENT = 95;
    /** The most bytes of live pages one pass rewrites (the store is locked meanwhile). */
    static final int WRITE_LIMIT_BYTES = 1024 * 1024;
    /** One pass for every this many commits since the previous run, at least one a run. */
    static final int COMMITS_PER_PASS = 10;
    /** The most passes in one run. */
    static final int MAX_PASSES = 20;

    private final DataSource pool;
    private final ScheduledExecutorService scheduler;
    private long lastVersion = -1;

    private H2Compaction(DataSource pool, boolean scheduled) {
        this.pool = pool;
        if (scheduled) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "svc-ref-h2-compact");
                t.setDaemon(true);
                return t;
            });
            scheduler.scheduleWithFixedDelay(this::runQuietly, INTERVAL_MILLIS, INTERVAL_MILLIS,
                    TimeUnit.MILLISECONDS);
        } else {
            scheduler = null;
        }
    }

    /** Compacts the H2 database behind {@code pool} every {@link #INTERVAL_MILLIS} until closed. */
    static H2Compaction scheduled(DataSource pool) {
        return new H2Compaction(pool, true);
    }

    /** Compacts only when {@link #run()} is called (tests drive it). */
    static H2Compaction manual(DataSource pool) {
        return new H2Compaction(pool, false);
    }

    private void runQuietly() {
        try {
            run();
        } catch (SQLException | RuntimeException e) {
            LOG.warn("could not compact the H2 file: {}", e.toString());
        }
    }

    /**
     * Runs one compaction: one pass for every {@link #COMMITS_PER_PASS} commits since the previous run (at
     * least one, at most {@link #MAX_PASSES}), stopping when the chunks are full enough. Returns the passes that
     * rewrote something.
     */
    synchronized int run() throws SQLException {
        try (Connection c = pool.getConnection()) {
            MVStore store = ((SessionLocal) c.unwrap(JdbcConnection.class).getSession()).getDatabase().getStore()
                    .getMvStore();
            long version = store.getCurrentVersion();
            long commits = lastVersion < 0 ? 0 : version - lastVersion;
            int passes = (int) Math.min(MAX_PASSES, Math.max(1, commits / COMMITS_PER_PASS));
            int rewrote = 0;
            while (rewrote < passes && store.compact(TARGET_FILL_PERCENT, WRITE_LIMIT_BYTES)) {
                rewrote++;
            }
            lastVersion = store.getCurrentVersion();
            return rewrote;
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
