package dev.svc.chat.reference.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
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

    private final HikariDataSource pool;
    private Path ownerOnlyDir; // H2's data directory, made owner-only again on close
    private Lock oneAtATime; // H2 only: held by each transaction and by compaction (null: none)
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
     * The file is not compacted while the server runs: with {@link H2Compaction} beside concurrent transactions
     * {@code H2KillLoopTest} found a kill leaving one half applied, and with transactions one at a time the
     * file unreadable after one kill in 313. The directory and its files are owner-only
     * ({@link OwnerOnlyFiles}) and the database has a generated password kept beside it ({@link H2Password}).
     */
    public static Database h2(Path dataDir) {
        return h2(dataDir, false, 0);
    }

    /**
     * Opens H2 as {@link #h2(Path)} does, with transactions one at a time or not ({@code oneAtATime}) and
     * compaction every {@code compactEveryMillis} (none when not positive; {@link #compactH2()} runs one).
     */
    static Database h2(Path dataDir, boolean oneAtATime, long compactEveryMillis) {
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
        OwnerOnlyFiles.restrict(dataDir); // the files H2 created while opening
        Lock lock = new ReentrantLock();
        database.oneAtATime = oneAtATime ? lock : null;
        database.compaction = H2Compaction.start(database.mvStore(), lock, compactEveryMillis);
        return database;
    }

    /** Returns H2's store under this database. */
    MVStore mvStore() {
        return tx(c -> ((SessionLocal) c.unwrap(JdbcConnection.class).getSession()).getDatabase().getStore()
                .getMvStore());
    }

    /** Runs one compaction of the H2 file now, as the scheduled one does; returns how long it held the lock. */
    long compactH2() {
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
