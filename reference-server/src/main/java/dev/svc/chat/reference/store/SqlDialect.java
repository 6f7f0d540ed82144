package dev.svc.chat.reference.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * What differs between the store's two SQL databases, in one place: PostgreSQL (a cluster's, or one server's)
 * and SQLite (the data directory). Every other statement of the store is the same text on both.
 */
enum SqlDialect {

    /** PostgreSQL: row locks, SQLSTATE codes. */
    POSTGRES {
        @Override
        String forUpdate() {
            return " FOR UPDATE";
        }

        @Override
        boolean uniqueViolation(SQLException e) {
            return "23505".equals(e.getSQLState());
        }

        @Override
        void begin(Connection c) {
            // the pool's connections do not auto-commit: the transaction began with the first statement
        }

        @Override
        void commit(Connection c) throws SQLException {
            c.commit();
        }

        @Override
        void rollback(Connection c) throws SQLException {
            c.rollback();
        }

        @Override
        boolean retryable(SQLException e) {
            String state = e.getSQLState();
            // 40001 serialization failure, 40P01 deadlock (H2 in PostgreSQL mode reports 40001 for both)
            return state != null && (state.equals("40001") || state.equals("40P01"));
        }
    },

    /**
     * SQLite: no row locks, and none needed, as every transaction begins {@code IMMEDIATE} (it holds the
     * database's one write lock from its first statement to its end, so a read-then-write cannot interleave).
     */
    SQLITE {
        @Override
        String forUpdate() {
            return "";
        }

        @Override
        boolean uniqueViolation(SQLException e) {
            return e instanceof SQLiteException s && (s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
                    || s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY);
        }

        @Override
        void begin(Connection c) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.execute("BEGIN IMMEDIATE");
            }
        }

        @Override
        void commit(Connection c) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.execute("COMMIT");
            }
        }

        @Override
        void rollback(Connection c) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.execute("ROLLBACK");
            } catch (SQLException e) {
                // SQLite rolls back by itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY, SQLITE_NOMEM)
                if (e.getMessage() == null || !e.getMessage().contains("no transaction is active")) {
                    throw e;
                }
            }
        }

        @Override
        boolean retryable(SQLException e) {
            // the write lock was not free within busy_timeout (another process on the file, a long checkpoint)
            return e instanceof SQLiteException s && (s.getResultCode() == SQLiteErrorCode.SQLITE_BUSY
                    || s.getResultCode() == SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT
                    || s.getResultCode() == SQLiteErrorCode.SQLITE_BUSY_TIMEOUT);
        }
    };

    /** Begins a transaction on {@code c}, a connection of the database's pool. */
    abstract void begin(Connection c) throws SQLException;

    /** Commits the transaction that {@link #begin} began. */
    abstract void commit(Connection c) throws SQLException;

    /** Rolls back the transaction that {@link #begin} began, if it is still open. */
    abstract void rollback(Connection c) throws SQLException;

    /** Returns the clause that locks the selected row until the transaction ends (with its leading space). */
    abstract String forUpdate();

    /** Returns whether {@code e} is a unique-key (or primary-key) violation. */
    abstract boolean uniqueViolation(SQLException e);

    /** Returns whether the database aborted the transaction so that it may simply run again. */
    abstract boolean retryable(SQLException e);
}
