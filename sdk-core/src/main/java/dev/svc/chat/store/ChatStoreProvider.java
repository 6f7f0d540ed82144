package dev.svc.chat.store;

/**
 * Opens the store of one user. A client opens its user's store at its first {@code connect}, and never
 * reads another user's: each user's data lives apart (on SQLite, a database file per user).
 */
public interface ChatStoreProvider {
  /**
   * Opens (creating it if needed, migrating it to the current schema) the store of {@code userId}.
   *
   * @param userId the user the client connects as
   * @return the open store
   * @throws StoreException {@link StoreException.Kind#CORRUPT} or {@link StoreException.Kind#NEWER_SCHEMA}
   *     when the existing data cannot be used (the client then calls {@link #delete} and opens it again),
   *     {@link StoreException.Kind#IO} when the storage cannot be reached
   */
  ChatStore open(String userId) throws StoreException;

  /**
   * Deletes everything stored for {@code userId} (its database and side files), whether or not it can be
   * read. The store of that user must not be open.
   *
   * @param userId the user whose data goes
   * @throws StoreException when the files could not be deleted
   */
  void delete(String userId) throws StoreException;
}
