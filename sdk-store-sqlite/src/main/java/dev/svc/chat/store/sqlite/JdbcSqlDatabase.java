package dev.svc.chat.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.HashMap;
import java.util.Map;

import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.sql.SqlDatabase;
import org.jspecify.annotations.Nullable;

/**
 * {@link SqlDatabase} on one JDBC connection of sqlite-jdbc. Prepared statements are kept per SQL text and
 * reused (the store's statements are constants). The connection stays in JDBC's auto-commit mode, and
 * transactions are SQLite's own {@code BEGIN IMMEDIATE ... COMMIT}, so none is held open between writes.
 */
final class JdbcSqlDatabase implements SqlDatabase {
  /** SQLite's primary result codes for a damaged database and for a file that is not one. */
  private static final int SQLITE_CORRUPT = 11;
  private static final int SQLITE_NOTADB = 26;

  private final Connection connection;
  private final Map<String, PreparedStatement> statements = new HashMap<>();

  JdbcSqlDatabase(Connection connection) {
    this.connection = connection;
  }

  @Override
  public int update(String sql, @Nullable Object... args) throws StoreException {
    if (sql.equals("VACUUM")) {
      // SQLite refuses VACUUM while a statement of the connection is open (sqlite-jdbc keeps a finished
      // query's statement open until its next use): the cached ones go, and are prepared again when used
      closeStatements();
      execute(sql);
      return 0;
    }
    try {
      PreparedStatement statement = prepare(sql, args);
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw failure(sql, e);
    }
  }

  @Override
  public void query(String sql, RowHandler handler, @Nullable Object... args) throws StoreException {
    try {
      PreparedStatement statement = prepare(sql, args);
      try (ResultSet rs = statement.executeQuery()) {
        ResultRow row = new ResultRow(rs);
        while (rs.next()) handler.row(row);
      }
    } catch (SQLException e) {
      throw failure(sql, e);
    }
  }

  @Override
  public void begin() throws StoreException {
    execute("BEGIN IMMEDIATE");
  }

  @Override
  public void commit() throws StoreException {
    try {
      execute("COMMIT");
    } catch (StoreException e) {
      rollback();
      throw e;
    }
  }

  @Override
  public void rollback() {
    try (Statement s = connection.createStatement()) {
      s.execute("ROLLBACK");
    } catch (SQLException e) {
      // no transaction was open (SQLite says "cannot rollback - no transaction is active"), or it is gone
    }
  }

  @Override
  public int schemaVersion() throws StoreException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
      return rs.next() ? rs.getInt(1) : 0;
    } catch (SQLException e) {
      throw failure("PRAGMA user_version", e);
    }
  }

  @Override
  public void setSchemaVersion(int version) throws StoreException {
    execute("PRAGMA user_version = " + version);
  }

  @Override
  public void close() {
    closeStatements();
    try {
      connection.close();
    } catch (SQLException ignored) {
      // nothing left to release
    }
  }

  private void closeStatements() {
    for (PreparedStatement s : statements.values()) {
      try {
        s.close();
      } catch (SQLException ignored) {
        // a statement that cannot close is released with the connection
      }
    }
    statements.clear();
  }

  private void execute(String sql) throws StoreException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw failure(sql, e);
    }
  }

  private PreparedStatement prepare(String sql, @Nullable Object[] args) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      statements.put(sql, statement);
    }
    statement.clearParameters();
    if (args == null) return statement;
    for (int i = 0; i < args.length; i++) {
      Object arg = args[i];
      if (arg == null) {
        statement.setNull(i + 1, Types.NULL);
      } else if (arg instanceof String) {
        statement.setString(i + 1, (String) arg);
      } else if (arg instanceof Long || arg instanceof Integer) {
        statement.setLong(i + 1, ((Number) arg).longValue());
      } else if (arg instanceof byte[]) {
        statement.setBytes(i + 1, (byte[]) arg);
      } else {
        throw new IllegalArgumentException("an argument of type " + arg.getClass().getName() + " in " + sql);
      }
    }
    return statement;
  }

  /** Maps a driver failure to the store's: SQLite's corrupt and not-a-database codes are CORRUPT, the rest IO. */
  static StoreException failure(String what, SQLException e) {
    int code = e.getErrorCode() & 0xff; // the primary code of an extended one
    StoreException.Kind kind = code == SQLITE_CORRUPT || code == SQLITE_NOTADB
        ? StoreException.Kind.CORRUPT : StoreException.Kind.IO;
    return new StoreException(kind, "SQLite failed (" + what + "): " + e.getMessage(), e);
  }

  /** One row of a result set, read by column index from 0. */
  private static final class ResultRow implements Row {
    private final ResultSet rs;

    ResultRow(ResultSet rs) {
      this.rs = rs;
    }

    @Override
    public @Nullable String text(int column) throws StoreException {
      try {
        return rs.getString(column + 1);
      } catch (SQLException e) {
        throw failure("reading a row", e);
      }
    }

    @Override
    public long integer(int column) throws StoreException {
      try {
        return rs.getLong(column + 1);
      } catch (SQLException e) {
        throw failure("reading a row", e);
      }
    }

    @Override
    public boolean isNull(int column) throws StoreException {
      try {
        return rs.getObject(column + 1) == null;
      } catch (SQLException e) {
        throw failure("reading a row", e);
      }
    }
  }
}
