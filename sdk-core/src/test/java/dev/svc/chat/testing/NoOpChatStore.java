package dev.svc.chat.testing;

import java.util.Collections;
import java.util.List;

import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.ChatStoreProvider;
import dev.svc.chat.store.RoomDigest;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;

/**
 * A base for test doubles of the offline store: a store that keeps nothing, and the provider that opens it.
 * It loads an empty state, answers no read (the service answers), accepts every write, and opens itself for every
 * user. A test overrides what it watches; a new method on {@link ChatStore} then needs one method here.
 */
public class NoOpChatStore implements ChatStoreProvider, ChatStore {
  /** Returns this store, for any user. */
  @Override
  public ChatStore open(String userId) throws StoreException {
    return this;
  }

  /** Deletes nothing: there is nothing kept. */
  @Override
  public void delete(String userId) throws StoreException {
  }

  /** Returns an empty state. */
  @Override
  public StoredState load() throws StoreException {
    return StoredState.empty();
  }

  /** Returns null: the store has no page, the service answers. */
  @Override
  public MessagePage messages(String roomId, MessageQuery query) throws StoreException {
    return null;
  }

  /** Returns null: the store has no digest for the room. */
  @Override
  public RoomDigest digest(String roomId, String userId, long readSeq, int recent, int limit) throws StoreException {
    return null;
  }

  /** Accepts the write and keeps nothing. */
  @Override
  public void write(StoreWrite write) throws StoreException {
  }

  /** Clears nothing. */
  @Override
  public void clear() throws StoreException {
  }

  /** Closes nothing. */
  @Override
  public void close() {
  }

  /** Returns no rooms. */
  @Override
  public List<StoredRoom> rooms() throws StoreException {
    return Collections.emptyList();
  }
}
