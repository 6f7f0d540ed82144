package dev.svc.chat.reference.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.flywaydb.core.Flyway;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;

/**
 * A migrated SQL database behind a small connection pool: H2 in a directory (file mode, PostgreSQL
 * compatibility, every commit written through before it returns) or PostgreSQL. Runs work in transactions
 * and retries those the database aborted for a serialization failure or a deadlock.
 */
public final class Database implements AutoCloseable {

    /** The database file's name in the data directory ({@code svc-chat.mv.db} on disk). */
    public static final String H2_FILE = "svc-chat";
    private static final int ATTEMPTS = 5;
    private static final int DATABASE_IS_CLOSED = 90098; // H2's answer to SHUTDOWN IMMEDIATELY itself

    private volatile HikariDataSource pool; // H2: replaced by each compaction, under the gate's write lock
    private Path ownerOnlyDir; // H2's data directory, made owner-only again on close
    private HikariConfig h2Config; // H2 only: to open the pool again after a compaction
    private Path h2File; // H2 only: svc-chat.mv.db
    private ReentrantReadWriteLock gate; // H2 only: read-held by each transaction, write-held by a compaction
    private Lock oneAtATime; // H2 only, tests: held by each transaction (null: none)
    private H2Compaction compaction; // H2 only

    /** Work in one transaction. */
    @FunctionalInterface
    public interface Work<T> {
        /** Runs on a connection whose transaction commits when this returns. */
        T run(Connection connection) throws SQLException;
    }

    private Database(HikariConfig config, String schema) {
        this.pool = new HikariDataSource(config);
        try {
            var flyway = Flyway.configure().dataSource(pool).locations("classpath:db/migration");
            if (schema != null) {
                flyway.schemas(schema).createSchemas(true);
            }
            flyway.load().migrate();
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * Opens (creating when absent) the H2 database in {@code dataDir}. {@code WRITE_DELAY=0} makes H2 write
     * each commit to the file before the commit returns, so a killed process loses nothing it acknowledged.
     * The file is not compacted while the server runs: {@link H2Compaction} (close, pack, open again) lost
     * acknowledged changes under {@code H2KillLoopTest}, so it is not scheduled here. The directory and its
     * files are owner-only ({@link OwnerOnlyFiles}) and the database has a generated password kept beside it
     * ({@link H2Password}).
     */
    public static Database h2(Path dataDir) {
        return h2(dataDir, false, H2Compaction.Policy.NEVER);
    }

    /**
     * Opens H2 as {@link #h2(Path)} does, with transactions one at a time or not ({@code oneAtATime}) and
     * compaction as {@code policy} says ({@link #compactH2()} runs one whatever it says).
     */
    static Database h2(Path dataDir, boolean oneAtATime, H2Compaction.Policy policy) {
        Path file = dataDir.toAbsolutePath().resolve(H2_FILE);
        String url = "jdbc:h2:file:" + file + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE"
                + ";DEFAULT_NULL_ORDERING=HIGH;WRITE_DELAY=0";
        OwnerOnlyFiles.restrict(dataDir);
        HikariConfig config = baseConfig("svc-ref-h2");
        config.setJdbcUrl(url);
        config.setUsername("sa");
        config.setPassword(H2Password.open(dataDir, url));
        Database database = new Database(config, null);
        database.ownerOnlyDir = dataDir;
        database.h2Config = config;
        database.h2File = dataDir.toAbsolutePath().resolve(H2_FILE + ".mv.db");
        OwnerOnlyFiles.restrict(dataDir); // the files H2 created while opening
        database.oneAtATime = oneAtATime ? new ReentrantLock() : null;
        database.gate = new ReentrantReadWriteLock();
        database.compaction = H2Compaction.start(database, database.gate.writeLock(),
                database.h2File, policy);
        return database;
    }

    /**
     * Closes H2 as a kill would ({@code SHUTDOWN IMMEDIATELY}: nothing more is written to the file), packs the
     * file ({@link H2Pack}: a new file beside it, renamed over it) and opens it again in a new pool. The caller
     * holds the gate's write lock, so no transaction is in progress. When opening fails the pool stays closed
     * (transactions fail) and the next call opens it.
     */
    void closeCompactAndReopen() {
        HikariDataSource old = pool;
        if (!old.isClosed()) {
            // a connection outside the pool keeps the database open while the pool closes its own
            try (Connection direct = DriverManager.getConnection(h2Config.getJdbcUrl(), h2Config.getUsername(),
                    h2Config.getPassword())) {
                old.close();
                try (Statement st = direct.createStatement()) {
                    st.execute("SHUTDOWN IMMEDIATELY");
                }
            } catch (SQLException e) {
                if (e.getErrorCode() != DATABASE_IS_CLOSED) {
                    throw new IllegalStateException("database: could not close for compaction: " + e.getMessage(), e);
                }
            }
            H2Pack.pack(h2File);
        }
        try {
            pool = new HikariDataSource(h2Config);
        } finally {
            OwnerOnlyFiles.restrict(ownerOnlyDir); // the file H2 wrote anew
        }
    }

    /** Returns how many threads wait on the gate: transactions behind a compaction, or the compaction. */
    int gateQueueLength() {
        return gate.getQueueLength();
    }

    /** Returns H2's store under this database. */
    MVStore mvStore() {
        return tx(c -> ((SessionLocal) c.unwrap(JdbcConnection.class).getSession()).getDatabase().getStore()
                .getMvStore());
    }

    /** Runs one compaction of the H2 file now, as the scheduled one does; returns what it did (null: put off). */
    H2Compaction.Result compactH2() {
        return compaction.run();
    }

    /**
     * Connects to PostgreSQL at {@code jdbcUrl}; {@code schema}, when not null, is created if needed and used
     * instead of the user's default one (several servers can share a database, each in its own schema).
     */
    /** Returns whether {@code url} is a PostgreSQL JDBC URL, the only database URL the server takes. */
    public static boolean isPostgresUrl(String url) {
        return url.startsWith("jdbc:postgresql:");
    }

    public static Database postgres(String jdbcUrl, String user, String password, String schema) {
        if (!isPostgresUrl(jdbcUrl)) {
            throw new IllegalArgumentException("the database URL must start with jdbc:postgresql:");
        }
        HikariConfig config = baseConfig("svc-ref-pg");
        config.setJdbcUrl(jdbcUrl);
        if (user != null) {
            config.setUsername(user);
        }
        if (password != null) {
            config.setPassword(password);
        }
        if (schema != null) {
            config.setSchema(schema);
        }
        return new Database(config, schema);
    }

    private static HikariConfig baseConfig(String name) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setMaximumPoolSize(8);
        config.setMinimumIdle(1);
        config.setAutoCommit(false);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        return config;
    }

    /** Runs {@code work} in a transaction and returns its result; SQL errors become {@link IllegalStateException}. */
    public <T> T tx(Work<T> work) {
        if (gate == null) {
            return attempts(work);
        }
        Lock open = gate.readLock(); // a compaction closes and reopens H2 between transactions only
        open.lock();
        try {
            Lock lock = oneAtATime;
            if (lock == null) {
                return attempts(work);
            }
            lock.lock();
            try {
                return attempts(work);
            } finally {
                lock.unlock();
            }
        } finally {
            open.unlock();
        }
    }

    private <T> T attempts(Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = pool.getConnection()) {
                try {
                    T result = work.run(c);
                    c.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                }
            } catch (SQLException e) {
                if (attempt < ATTEMPTS && retryable(e)) {
                    continue;
                }
                throw new IllegalStateException("database: " + e.getMessage(), e);
            }
        }
    }

    /** Returns whether the database aborted the transaction so that it may simply run again. */
    private static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        // 40001 serialization failure, 40P01 deadlock (PostgreSQL); H2 reports 40001 for deadlocks too.
        return state != null && (state.equals("40001") || state.equals("40P01"));
    }

    /** Returns whether {@code e} is a unique-key violation. */
    static boolean uniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /** Closes the pool; H2 closes its file with the last connection. */
    @Override
    public void close() {
        if (compaction != null) {
            compaction.close();
        }
        pool.close();
        if (ownerOnlyDir != null) {
            OwnerOnlyFiles.restrict(ownerOnlyDir);
        }
    }
}
