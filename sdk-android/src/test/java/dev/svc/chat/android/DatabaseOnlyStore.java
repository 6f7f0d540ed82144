package dev.svc.chat.android;

import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.RoomDigest;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;
import dev.svc.chat.store.sql.SqlDatabase;
import java.util.List;

/** A store that only holds its database, for tests of the database binding: closing it closes the database. */
class DatabaseOnlyStore implements ChatStore {
  final SqlDatabase db;

  DatabaseOnlyStore(SqlDatabase db) {
    this.db = db;
  }

  @Override
  public StoredState load() {
    throw new UnsupportedOperationException();
  }

  @Override
  public MessagePage messages(String roomId, MessageQuery query) {
    throw new UnsupportedOperationException();
  }

  @Override
  public RoomDigest digest(String roomId, String userId, long readSeq, int recent, int limit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void write(StoreWrite write) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void clear() {
    throw new UnsupportedOperationException();
  }

  @Override
  public void close() {
    db.close();
  }

  @Override
  public List<StoredRoom> rooms() {
    throw new UnsupportedOperationException();
  }
}
