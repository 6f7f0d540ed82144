package dev.svc.chat.store.sqlite;

import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.sql.SqlDatabase;

/** A test seam: a database whose first update starting with a given text fails, as a full disk would. */
final class FailingDatabase implements SqlDatabase {
  private final SqlDatabase delegate;
  private final String failingPrefix;

  FailingDatabase(SqlDatabase delegate, String failingPrefix) {
    this.delegate = delegate;
    this.failingPrefix = failingPrefix;
  }

  @Override
  public int update(String sql, Object... args) throws StoreException {
    if (sql.startsWith(failingPrefix)) throw new StoreException(StoreException.Kind.IO, "planted", null);
    return delegate.update(sql, args);
  }

  @Override
  public void query(String sql, RowHandler handler, Object... args) throws StoreException {
    delegate.query(sql, handler, args);
  }

  @Override
  public void begin() throws StoreException {
    delegate.begin();
  }

  @Override
  public void commit() throws StoreException {
    delegate.commit();
  }

  @Override
  public void rollback() {
    delegate.rollback();
  }

  @Override
  public int schemaVersion() throws StoreException {
    return delegate.schemaVersion();
  }

  @Override
  public void setSchemaVersion(int version) throws StoreException {
    delegate.setSchemaVersion(version);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
