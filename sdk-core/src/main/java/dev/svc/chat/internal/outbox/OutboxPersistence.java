package dev.svc.chat.internal.outbox;

import java.io.IOException;
import java.util.List;

/**
 * Where the outbox keeps its pending sends across restarts: the outbox directory ({@link FileOutboxStore}) or
 * the offline store ({@link StoreOutbox}). Called on the client's I/O queue only.
 */
interface OutboxPersistence {
  /** Writes {@code entry} durably; returns what {@link #delete} needs to remove it. */
  Object write(OutboxEntry entry) throws IOException;

  /** Removes the entry written as {@code handle}; one already gone is not an error. */
  void delete(Object handle) throws IOException;

  /**
   * Returns the entries {@code userId} left, in sequence order, each with its handle set; problems are
   * reported, never thrown.
   */
  List<OutboxEntry> load(String userId, long nowMillis, FileOutboxStore.Reporter reporter);

  /** Says where the entries are kept, for the log. */
  String where();
}
