package dev.svc.chat.bench.search;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.sql.SqlDatabase;

/**
 * The benchmark's own binding of the shared SQL store to sqlite-jdbc, as sdk-store-sqlite's (WAL,
 * {@code synchronous=NORMAL}, statements cached), with one switch: {@code withoutIndex} leaves out every write of
 * the search index (its rows, and the delete trigger that lists deleted messages for it; its empty tables are
 * made, as the schema requires them), so that the same store code runs with the index on and off.
 */
final class PlainJdbcDatabase implements SqlDatabase {
  private final Connection connection;
  private final boolean withoutIndex;
  private final Map<String, PreparedStatement> statements = new HashMap<>();

  PlainJdbcDatabase(String file, boolean withoutIndex) throws SQLException {
    this.connection = DriverManager.getConnection("jdbc:sqlite:" + file);
    this.withoutIndex = withoutIndex;
    try (Statement s = connection.createStatement()) {
      s.execute("PRAGMA journal_mode = WAL");
      s.execute("PRAGMA synchronous = NORMAL");
      s.execute("PRAGMA temp_store = MEMORY");
    }
  }

  @Override
  public int update(String sql, Object... args) throws StoreException {
    if (withoutIndex && sql.contains("message_search") && !sql.startsWith("CREATE VIRTUAL TABLE")
        && !sql.startsWith("CREATE TABLE")) {
      return 0;
    }
    try {
      return prepare(sql, args).executeUpdate();
    } catch (SQLException e) {
      throw new StoreException(StoreException.Kind.IO, sql + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void query(String sql, RowHandler handler, Object... args) throws StoreException {
    try (ResultSet rs = prepare(sql, args).executeQuery()) {
      Row row = new Row() {
        @Override
        public String text(int column) throws StoreException {
          try {
            return rs.getString(column + 1);
          } catch (SQLException e) {
            throw new StoreException(StoreException.Kind.IO, e.getMessage(), e);
          }
        }

        @Override
        public long integer(int column) throws StoreException {
          try {
            return rs.getLong(column + 1);
          } catch (SQLException e) {
            throw new StoreException(StoreException.Kind.IO, e.getMessage(), e);
          }
        }

        @Override
        public boolean isNull(int column) throws StoreException {
          try {
            return rs.getObject(column + 1) == null;
          } catch (SQLException e) {
            throw new StoreException(StoreException.Kind.IO, e.getMessage(), e);
          }
        }
      };
      while (rs.next()) handler.row(row);
    } catch (SQLException e) {
      throw new StoreException(StoreException.Kind.IO, sql + ": " + e.getMessage(), e);
    }
  }

  private PreparedStatement prepare(String sql, Object[] args) throws SQLException {
    PreparedStatement p = statements.get(sql);
    if (p == null) {
      p = connection.prepareStatement(sql);
      statements.put(sql, p);
    }
    p.clearParameters();
    for (int i = 0; args != null && i < args.length; i++) {
      Object a = args[i];
      if (a == null) {
        p.setNull(i + 1, java.sql.Types.NULL);
      } else if (a instanceof String) {
        p.setString(i + 1, (String) a);
      } else {
        p.setLong(i + 1, ((Number) a).longValue());
      }
    }
    return p;
  }

  private void execute(String sql) throws StoreException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new StoreException(StoreException.Kind.IO, sql + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void begin() throws StoreException {
    execute("BEGIN IMMEDIATE");
  }

  @Override
  public void commit() throws StoreException {
    execute("COMMIT");
  }

  @Override
  public void rollback() {
    try {
      execute("ROLLBACK");
    } catch (StoreException ignored) {
      // none open
    }
  }

  @Override
  public int schemaVersion() throws StoreException {
    int[] v = {0};
    query("PRAGMA user_version", row -> v[0] = (int) row.integer(0));
    return v[0];
  }

  @Override
  public void setSchemaVersion(int version) throws StoreException {
    execute("PRAGMA user_version = " + version);
  }

  @Override
  public void close() {
    try {
      for (PreparedStatement p : statements.values()) p.close();
      connection.close();
    } catch (SQLException ignored) {
      // released with the process
    }
  }
}
