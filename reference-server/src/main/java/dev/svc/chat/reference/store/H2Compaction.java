package dev.svc.chat.reference.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the H2 file near the size of its live data by closing the database, packing its file and opening it
 * again, while the {@link Database}'s transactions wait on its gate. With {@code WRITE_DELAY=0} every commit is
 * a chunk of its own, and a chunk stays on disk while one of its pages is live; H2 compacts only from its
 * background writer (which runs only with a write delay) and when it closes.
 *
 * <p>The gate's write lock is taken only once every transaction in progress committed or rolled back, so every
 * acknowledged change is in the file. The database is then closed with {@code SHUTDOWN IMMEDIATELY}, which
 * writes nothing more (the file is as a {@code kill -9} would leave it, which {@code H2KillLoopTest} shows loses
 * nothing acknowledged); H2's normal close is not used, because it commits with a retention time of 0 and
 * truncates the file before it writes the header, and with {@code SHUTDOWN COMPACT} the kill loop lost
 * acknowledged changes. {@code MVStoreTool.compact(file, true)} (H2 2.2.224) reads the file read-only, copies
 * every live page into {@code svc-chat.mv.db.tempFile}, closes that and renames it over the file
 * ({@code FileUtils.moveAtomicReplace}; only where the file system refuses an atomic replace does it go through
 * {@code .newFile}). So a kill at any moment leaves the old file (a partial {@code .tempFile} beside it) or the
 * new one; every open deletes a {@code .tempFile} and puts a {@code .newFile} in place when the database file is
 * missing ({@code MVStoreTool.compactCleanUp}), so no leftover needs handling here.
 *
 * <p>The server does not run it ({@link Database#h2(Path)}): under {@code H2KillLoopTest} (mode {@code reopen},
 * a compaction every 200 ms) kills left acknowledged changes missing, with H2's {@code SHUTDOWN COMPACT}, with
 * {@code MVStoreTool.compact} after {@code SHUTDOWN IMMEDIATELY}, and with {@link H2Pack}; a process that stopped
 * its writers and closed with {@code SHUTDOWN IMMEDIATELY} after two compactions lost 8 of 163 acknowledged
 * sends once, without a kill. The cause is not known. It stays for that test and for the next attempt.
 *
 * <p>A check every {@link Policy#checkEveryMillis} compacts when the file is over {@link Policy#ratio} times the
 * size it had after the last compaction (a lower bound of the live data while little is deleted; unknown, so 0,
 * after opening), over {@link Policy#minBytes}, and the last compaction ended at least {@link Policy#minGapMillis}
 * and {@link Policy#gapPerPause} times its pause ago (requests wait a small share of the time).
 */
final class H2Compaction implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(H2Compaction.class);
    /**
     * When to compact: checked every {@code checkEveryMillis}; due when the file is over {@code ratio} times its
     * size after the last compaction and over {@code minBytes}, and the last one ended at least
     * {@code minGapMillis} and {@code gapPerPause} times its pause ago. A compaction waits at most
     * {@code drainMillis} for the transactions in progress (new ones wait behind it), else it is put off.
     */
    record Policy(long checkEveryMillis, double ratio, long minBytes, long minGapMillis, long gapPerPause,
            long drainMillis) {

        /**
         * The policy measured for the server (not run): every 5 s, at 2.5 times and 4 MB, at most every 20 s and
         * 20 pauses, draining 1 s.
         */
        static final Policy SERVER = new Policy(5_000, 2.5, 4L << 20, 20_000, 20, 1_000);
        /** No scheduled compaction; {@link Database#compactH2()} runs one, waiting up to 30 s for transactions. */
        static final Policy NEVER = new Policy(0, 0, 0, 0, 0, 30_000);

        boolean due(long bytes, long packedBytes, long sinceLastMillis, long lastPauseMillis) {
            return bytes >= minBytes && bytes > ratio * packedBytes
                    && sinceLastMillis >= Math.max(minGapMillis, gapPerPause * lastPauseMillis);
        }
    }

    /** What one compaction did: the file's size before and after, and how long transactions waited. */
    record Result(long bytesBefore, long bytesAfter, long pauseMillis) {
    }

    private final Database database;
    private final Lock gate;
    private final Path file;
    private final Policy policy;
    private final ScheduledExecutorService scheduler;
    private long packedBytes; // the file's size after the last compaction; 0 until one ran
    private long lastEndNanos = System.nanoTime();
    private long lastPauseMillis;

    private H2Compaction(Database database, Lock gate, Path file, Policy policy) {
        this.database = database;
        this.gate = gate;
        this.file = file;
        this.policy = policy;
        if (policy.checkEveryMillis() > 0) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "svc-ref-h2-compact");
                t.setDaemon(true);
                return t;
            });
            scheduler.scheduleWithFixedDelay(this::checkQuietly, policy.checkEveryMillis(), policy.checkEveryMillis(),
                    TimeUnit.MILLISECONDS);
        } else {
            scheduler = null;
        }
    }

    /** Compacts the H2 file {@code file} of {@code database} as {@code policy} says, taking {@code gate}. */
    static H2Compaction start(Database database, Lock gate, Path file, Policy policy) {
        return new H2Compaction(database, gate, file, policy);
    }

    private void checkQuietly() {
        try {
            long bytes = Files.size(file);
            if (policy.due(bytes, packedBytes, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastEndNanos),
                    lastPauseMillis)) {
                run();
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not compact the H2 file: {}", e.toString());
        }
    }

    /**
     * Runs one compaction now; returns what it did, or null when a transaction in progress did not end within
     * {@link Policy#drainMillis} (the next check tries again).
     */
    synchronized Result run() {
        long start = System.nanoTime();
        try {
            if (!gate.tryLock(policy.drainMillis(), TimeUnit.MILLISECONDS)) {
                LOG.info("H2 compaction put off: a transaction ran for over {} ms", policy.drainMillis());
                return null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        long before;
        try {
            before = sizeOrZero();
            database.closeCompactAndReopen();
        } finally {
            gate.unlock();
        }
        long end = System.nanoTime();
        lastEndNanos = end;
        lastPauseMillis = TimeUnit.NANOSECONDS.toMillis(end - start);
        packedBytes = sizeOrZero();
        LOG.info("compacted the H2 file from {} KB to {} KB; requests waited {} ms", before / 1024,
                packedBytes / 1024, lastPauseMillis);
        return new Result(before, packedBytes, lastPauseMillis);
    }

    private long sizeOrZero() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Stops the scheduled checks, waiting for a compaction in progress (not interrupted: H2 would close its file). */
    @Override
    public void close() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
