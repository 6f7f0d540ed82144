package dev.svc.chat.reference.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;

/**
 * A migrated SQL database behind a small connection pool: SQLite in a data directory ({@link #sqlite}) or
 * PostgreSQL ({@link #postgres}), whose differences in SQL are {@link SqlDialect}'s. Runs work in transactions
 * and retries those the database aborted for a serialization failure, a deadlock or a busy write lock.
 */
public final class Database implements AutoCloseable {

    private static final int ATTEMPTS = 5;

    /** The database file's name in the data directory. */
    public static final String SQLITE_FILE = "svc-chat.sqlite";

    private final SqlDialect dialect;
    private final HikariDataSource pool;
    private DataDirLock dirLock; // SQLite only: one server per data directory
    private Path ownerOnlyDir; // the data directory, made owner-only again on close

    /** Work in one transaction. */
    @FunctionalInterface
    public interface Work<T> {
        /** Runs on a connection whose transaction commits when this returns. */
        T run(Connection connection) throws SQLException;
    }

    /**
     * Opens a pool on {@code config} and migrates its database with the PostgreSQL scripts ({@code db/migration/},
     * which H2 in PostgreSQL mode ran too: the import's tests write an H2 directory with them), in {@code schema}
     * when not null.
     */
    Database(HikariConfig config, String schema) {
        this.dialect = SqlDialect.POSTGRES;
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

    private Database(HikariConfig config) {
        this.dialect = SqlDialect.SQLITE;
        this.pool = new HikariDataSource(config);
    }

    /**
     * Opens (creating when absent) the SQLite database {@value #SQLITE_FILE} in {@code dataDir}, migrated to the
     * current schema ({@code db/sqlite/}); its settings are {@link SqliteFile}'s. A directory an earlier server
     * kept in H2 is imported first ({@link H2Import}). One server at a time uses a directory ({@link DataDirLock}),
     * and the directory and its files are owner-only ({@link OwnerOnlyFiles}).
     */
    public static Database sqlite(Path dataDir) {
        Path file = dataDir.toAbsolutePath().resolve(SQLITE_FILE);
        OwnerOnlyFiles.restrict(dataDir);
        DataDirLock lock = DataDirLock.take(dataDir);
        try {
            H2Import.importIfPresent(dataDir);
            Database database = openSqlite(file);
            database.dirLock = lock;
            database.ownerOnlyDir = dataDir;
            OwnerOnlyFiles.restrict(dataDir); // the -wal and -shm files
            return database;
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    private static Database openSqlite(Path file) {
        SqliteFile.migrate(file);
        HikariConfig config = new HikariConfig();
        config.setPoolName("svc-ref-sqlite");
        // One connection: SQLite has one writer, and each transaction takes the write lock as it begins; the
        // pool hands the connection over in arrival order, where SQLite's busy handler would poll with sleeps.
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        config.setAutoCommit(true); // tx() begins IMMEDIATE and commits itself (SqlDialect)
        config.setDataSource(SqliteFile.dataSource(file));
        return new Database(config);
    }

    /** Returns the dialect of this database's SQL. */
    SqlDialect dialect() {
        return dialect;
    }

    /** Returns whether {@code url} is a PostgreSQL JDBC URL, the only database URL the server takes. */
    public static boolean isPostgresUrl(String url) {
        return url.startsWith("jdbc:postgresql:");
    }

    /**
     * Connects to PostgreSQL at {@code jdbcUrl}; {@code schema}, when not null, is created if needed and used
     * instead of the user's default one (several servers can share a database, each in its own schema).
     */
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

    /** Returns a pool configuration for PostgreSQL's (and H2's) connections: not auto-committing, read committed. */
    static HikariConfig baseConfig(String name) {
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
        for (int attempt = 1; ; attempt++) {
            try (Connection c = pool.getConnection()) {
                dialect.begin(c);
                try {
                    T result = work.run(c);
                    dialect.commit(c);
                    return result;
                } catch (SQLException | RuntimeException e) {
                    dialect.rollback(c);
                    throw e;
                }
            } catch (SQLException e) {
                if (attempt < ATTEMPTS && dialect.retryable(e)) {
                    continue;
                }
                throw new IllegalStateException("database: " + e.getMessage(), e);
            }
        }
    }

    /** Closes the pool (SQLite checkpoints its log into the file and deletes it with the last connection). */
    @Override
    public void close() {
        pool.close();
        if (ownerOnlyDir != null) {
            OwnerOnlyFiles.restrict(ownerOnlyDir);
        }
        if (dirLock != null) {
            dirLock.close();
        }
    }
}
