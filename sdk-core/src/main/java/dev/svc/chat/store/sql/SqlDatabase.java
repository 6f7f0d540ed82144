package dev.svc.chat.store.sql;

import dev.svc.chat.store.StoreException;
import org.jspecify.annotations.Nullable;

/**
 * One open SQLite database, as the shared store uses it: statements with positional {@code ?} arguments
 * (each a {@link String}, a {@link Long} or {@link Integer}, a {@code byte[]} or null, bound with its own
 * type), queries read row by row, transactions, and the schema version ({@code PRAGMA user_version}). Used
 * from one thread at a time. Every failure is a {@link StoreException}: {@link StoreException.Kind#CORRUPT}
 * for SQLite's "database disk image is malformed" and "file is not a database", else
 * {@link StoreException.Kind#IO}.
 */
public interface SqlDatabase {
  /** Reads one row of a query's result. */
  interface Row {
    /**
     * Returns a column's text.
     *
     * @param column the column, from 0
     * @return its text, or null for NULL
     * @throws StoreException when it cannot be read
     */
    @Nullable String text(int column) throws StoreException;

    /**
     * Returns a column's integer.
     *
     * @param column the column, from 0
     * @return its integer (0 for NULL)
     * @throws StoreException when it cannot be read
     */
    long integer(int column) throws StoreException;

    /**
     * Returns whether a column is NULL.
     *
     * @param column the column, from 0
     * @return whether it is NULL
     * @throws StoreException when it cannot be read
     */
    boolean isNull(int column) throws StoreException;
  }

  /** Receives the rows of a query, one call per row. */
  interface RowHandler {
    /**
     * Takes one row; the row is valid during the call only.
     *
     * @param row the row
     * @throws StoreException to stop the query with this failure
     */
    void row(Row row) throws StoreException;
  }

  /**
   * Runs a statement that returns no rows.
   *
   * @param sql the statement
   * @param args its arguments
   * @return the number of rows it changed (0 for statements that change none)
   * @throws StoreException when it failed
   */
  int update(String sql, @Nullable Object... args) throws StoreException;

  /**
   * Runs a query and hands each row to {@code handler}.
   *
   * @param sql the query
   * @param handler receives the rows
   * @param args its arguments
   * @throws StoreException when it failed
   */
  void query(String sql, RowHandler handler, @Nullable Object... args) throws StoreException;

  /**
   * Begins a transaction that takes the write lock at once ({@code BEGIN IMMEDIATE}).
   *
   * @throws StoreException when it could not
   */
  void begin() throws StoreException;

  /**
   * Commits the transaction begun.
   *
   * @throws StoreException when it could not; the transaction was rolled back
   */
  void commit() throws StoreException;

  /** Rolls back the transaction begun, if any; never throws. */
  void rollback();

  /**
   * Returns the schema version ({@code PRAGMA user_version}; 0 for a new database).
   *
   * @return the version
   * @throws StoreException when it cannot be read
   */
  int schemaVersion() throws StoreException;

  /**
   * Sets the schema version, inside the migration's transaction.
   *
   * @param version the version
   * @throws StoreException when it could not
   */
  void setSchemaVersion(int version) throws StoreException;

  /** Closes the database; never throws. */
  void close();
}
