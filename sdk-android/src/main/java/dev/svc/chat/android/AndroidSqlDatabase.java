package dev.svc.chat.android;

import android.database.Cursor;
import android.database.DatabaseUtils;
import android.database.sqlite.SQLiteCursor;
import android.database.sqlite.SQLiteCursorDriver;
import android.database.sqlite.SQLiteDatabase;
import android.database.sqlite.SQLiteDatabaseCorruptException;
import android.database.sqlite.SQLiteProgram;
import android.database.sqlite.SQLiteQuery;
import android.database.sqlite.SQLiteStatement;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.sql.SqlDatabase;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@link SqlDatabase} on the framework's {@link SQLiteDatabase}. Statements that change rows are compiled once
 * and reused (up to {@link #CACHED_STATEMENTS}); arguments are bound with their own type on statements and on
 * queries alike ({@code rawQuery} binds strings only, so queries go through a {@link SQLiteDatabase.CursorFactory}
 * that binds them on the {@link SQLiteQuery}). Android's transactions belong to the thread that began them, so
 * {@link #begin()}, the statements of the transaction and {@link #commit()} run on one thread: the store makes
 * each write within one call.
 */
final class AndroidSqlDatabase implements SqlDatabase {
  /** How many compiled statements are kept for reuse; the store has fewer distinct ones. */
  static final int CACHED_STATEMENTS = 48;

  private final SQLiteDatabase db;
  private final Map<String, SQLiteStatement> statements =
      new LinkedHashMap<String, SQLiteStatement>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SQLiteStatement> eldest) {
          if (size() <= CACHED_STATEMENTS) return false;
          eldest.getValue().close();
          return true;
        }
      };

  AndroidSqlDatabase(SQLiteDatabase db) {
    this.db = db;
  }

  @Override
  public int update(String sql, @Nullable Object... args) throws StoreException {
    checkArgs(args);
    try {
      switch (DatabaseUtils.getSqlStatementType(sql)) {
        case DatabaseUtils.STATEMENT_SELECT:
        case DatabaseUtils.STATEMENT_PRAGMA:
          // may return a row (PRAGMA journal_mode=...), which a compiled statement refuses to step over
          query(sql, IGNORE_ROWS, args);
          return 0;
        case DatabaseUtils.STATEMENT_UPDATE:
        case DatabaseUtils.STATEMENT_OTHER: {
          SQLiteStatement s = statement(sql);
          bind(s, args);
          return s.executeUpdateDelete();
        }
        default: {
          // DDL and the like: executeUpdateDelete would report the changes of the last INSERT, UPDATE or DELETE
          SQLiteStatement s = statement(sql);
          bind(s, args);
          s.execute();
          return 0;
        }
      }
    } catch (RuntimeException e) {
      throw failure("the statement failed", e);
    }
  }

  private SQLiteStatement statement(String sql) {
    SQLiteStatement s = statements.get(sql);
    if (s == null) {
      s = db.compileStatement(sql);
      statements.put(sql, s);
    }
    return s;
  }

  @Override
  public void query(String sql, RowHandler handler, @Nullable Object... args) throws StoreException {
    checkArgs(args);
    Cursor cursor;
    try {
      cursor = db.rawQueryWithFactory(new TypedBinds(args), sql, null, null);
    } catch (RuntimeException e) {
      throw failure("the query failed", e);
    }
    try {
      CursorRow row = new CursorRow(cursor);
      while (cursor.moveToNext()) handler.row(row);
    } catch (RuntimeException e) {
      throw failure("reading the rows failed", e);
    } finally {
      cursor.close();
    }
  }

  @Override
  public void begin() throws StoreException {
    try {
      db.beginTransactionNonExclusive(); // BEGIN IMMEDIATE
    } catch (RuntimeException e) {
      throw failure("the transaction could not begin", e);
    }
  }

  @Override
  public void commit() throws StoreException {
    try {
      db.setTransactionSuccessful();
      db.endTransaction();
    } catch (RuntimeException e) {
      rollback();
      throw failure("the transaction could not commit", e);
    }
  }

  @Override
  public void rollback() {
    try {
      if (db.inTransaction()) db.endTransaction(); // not marked successful: rolled back
    } catch (RuntimeException ignored) {
      // nothing more to undo: a failed end leaves no transaction behind
    }
  }

  @Override
  public int schemaVersion() throws StoreException {
    try {
      return db.getVersion();
    } catch (RuntimeException e) {
      throw failure("the schema version could not be read", e);
    }
  }

  @Override
  public void setSchemaVersion(int version) throws StoreException {
    try {
      db.setVersion(version);
    } catch (RuntimeException e) {
      throw failure("the schema version could not be written", e);
    }
  }

  @Override
  public void close() {
    try {
      for (Iterator<SQLiteStatement> it = statements.values().iterator(); it.hasNext(); ) {
        it.next().close();
        it.remove();
      }
      db.close();
    } catch (RuntimeException ignored) {
      // closing releases what it can; there is nothing left to report to
    }
  }

  /**
   * Maps a framework failure: corruption ({@link SQLiteDatabaseCorruptException}, which Android raises for
   * SQLite's CORRUPT and NOTADB, or their messages) is {@link StoreException.Kind#CORRUPT}, the rest
   * {@link StoreException.Kind#IO}.
   */
  static StoreException failure(String what, RuntimeException e) {
    return new StoreException(isCorruption(e) ? StoreException.Kind.CORRUPT : StoreException.Kind.IO,
        what + ": " + e.getMessage(), e);
  }

  static boolean isCorruption(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLiteDatabaseCorruptException) return true;
      String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (m.contains("file is not a database") || m.contains("database disk image is malformed")) return true;
    }
    return false;
  }

  private static void checkArgs(@Nullable Object[] args) {
    if (args == null) return;
    for (Object a : args) {
      if (a != null && !(a instanceof String) && !(a instanceof Long) && !(a instanceof Integer)
          && !(a instanceof byte[])) {
        throw new IllegalArgumentException("an argument must be a String, Long, Integer, byte[] or null: "
            + a.getClass().getName());
      }
    }
  }

  /** Binds {@code args} at positions 1.. of {@code program}, each with its own type (checked before). */
  static void bind(SQLiteProgram program, @Nullable Object[] args) {
    program.clearBindings();
    if (args == null) return;
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      int index = i + 1;
      if (a == null) {
        program.bindNull(index);
      } else if (a instanceof String) {
        program.bindString(index, (String) a);
      } else if (a instanceof byte[]) {
        program.bindBlob(index, (byte[]) a);
      } else {
        program.bindLong(index, ((Number) a).longValue());
      }
    }
  }

  /** Creates the cursor of a query after binding its arguments with their types. */
  private static final class TypedBinds implements SQLiteDatabase.CursorFactory {
    private final @Nullable Object[] args;

    TypedBinds(@Nullable Object[] args) {
      this.args = args;
    }

    @Override
    public Cursor newCursor(SQLiteDatabase db, SQLiteCursorDriver driver, String editTable, SQLiteQuery query) {
      bind(query, args);
      return new SQLiteCursor(driver, editTable, query);
    }
  }

  /** A row of an open cursor. */
  private static final class CursorRow implements Row {
    private final Cursor cursor;

    CursorRow(Cursor cursor) {
      this.cursor = cursor;
    }

    @Override
    public @Nullable String text(int column) throws StoreException {
      try {
        return cursor.isNull(column) ? null : cursor.getString(column);
      } catch (RuntimeException e) {
        throw failure("a column could not be read", e);
      }
    }

    @Override
    public long integer(int column) throws StoreException {
      try {
        return cursor.getLong(column);
      } catch (RuntimeException e) {
        throw failure("a column could not be read", e);
      }
    }

    @Override
    public boolean isNull(int column) throws StoreException {
      try {
        return cursor.isNull(column);
      } catch (RuntimeException e) {
        throw failure("a column could not be read", e);
      }
    }
  }

  private static final RowHandler IGNORE_ROWS = new RowHandler() {
    @Override
    public void row(Row row) {}
  };
}
