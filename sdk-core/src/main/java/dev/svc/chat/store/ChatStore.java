package dev.svc.chat.store;

import java.util.List;

import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import org.jspecify.annotations.Nullable;

/**
 * The store of one user, opened by a {@link ChatStoreProvider}. What it holds, and the rules an
 * implementation keeps:
 *
 * <ul>
 *   <li>rooms, as last listed or seen;
 *   <li>messages keyed by id, each in its latest revision only: a write of an older {@code rev} never replaces
 *       a newer one;
 *   <li>receipts, one per room and user, whose {@code seq} never moves backwards;
 *   <li>each room's watermarks: the highest {@code seq} delivered with every one below it delivered, and the
 *       revision below which every change was applied;
 *   <li>the pending sends (the outbox) of the user, keyed by room and {@code clientMessageId} (the same id in two
 *       rooms is two sends, as the service's idempotency has it).
 * </ul>
 *
 * A {@link StoreWrite} is applied in one transaction, so what belongs together (a batch of messages and the
 * watermark that covers them; a send's stored message and the end of its outbox entry) is stored whole or
 * not at all, and a watermark is never ahead of the messages it covers.
 *
 * <p>The client calls a store from one thread at a time (its I/O queue). A method that fails throws
 * {@link StoreException}.
 */
public interface ChatStore {
  /**
   * Reads what the client needs when it starts: the rooms with their watermarks, the receipts, the changes
   * events delivered above each room's revision watermark (not what was only kept from the service's answers),
   * and the pending sends.
   *
   * @return the stored state; empty for a new store
   * @throws StoreException when it cannot be read ({@link StoreException.Kind#CORRUPT} for a corrupt database)
   */
  StoredState load() throws StoreException;

  /**
   * Answers {@code query} from the store when it holds the whole page: every message of the page's range
   * lies within the room's stored history, which runs without a gap from its oldest message kept up to the
   * room's {@code seq} watermark (and, for a page going back, down to the room's first message when
   * {@code hasMore} is false). The page's {@link MessagePage#fromStore()} is true.
   *
   * @param roomId the room
   * @param query the page asked for
   * @return the page, or null when the store does not hold all of it (the client then asks the service)
   * @throws StoreException when it cannot be read
   */
  @Nullable MessagePage messages(String roomId, MessageQuery query) throws StoreException;

  /**
   * Reads what the room list needs of a stored room at start: the first seq of its stored history, its newest
   * {@code recent} messages not deleted, and the newest {@code limit} messages above {@code readSeq} that another
   * user than {@code userId} sent and that are not deleted (the unread rule of {@link dev.svc.chat.RoomSummary}).
   *
   * @param roomId the room
   * @param userId the store's user
   * @param readSeq the seq of the user's own receipt (0: none)
   * @param recent how many visible messages to return at most
   * @param limit how many unread messages to return at most
   * @return the digest, or null when the room is not stored
   * @throws StoreException when it cannot be read
   */
  @Nullable RoomDigest digest(String roomId, String userId, long readSeq, int recent, int limit) throws StoreException;

  /**
   * Applies {@code write} in one transaction: all of it, or (on an exception) none of it.
   *
   * @param write the changes
   * @throws StoreException when it could not be applied; nothing of it was
   */
  void write(StoreWrite write) throws StoreException;

  /**
   * Deletes everything this store holds (the user's logout); the store stays open and empty.
   *
   * @throws StoreException when it could not
   */
  void clear() throws StoreException;

  /** Closes the store; later calls fail. Closing twice does nothing. */
  void close();

  /**
   * Returns the rooms stored, most recently active first (the room list of an app started offline).
   *
   * @return the rooms with their watermarks
   * @throws StoreException when they cannot be read
   */
  List<StoredRoom> rooms() throws StoreException;

  /**
   * Searches the stored messages of the user's current rooms with the service's rules ({@code docs/search.md}):
   * the same words, folding, phrases and prefixes, newest first, snippets with the same marks, paged with a
   * cursor this method gave. The page's {@link SearchPage#fromStore()} is true. A store that keeps no search
   * index answers null (the default).
   *
   * @param query the words and what narrows them; its cursor, if any, one this store gave for the same search
   * @param userId the store's user: only rooms whose members include the user (or are not known) are searched
   * @return the page, or null when this store cannot search
   * @throws IllegalArgumentException when the query has no word, is narrowed by thread (which a store need not
   *     support), or its cursor is not one of this search
   * @throws StoreException when it cannot be read
   */
  default @Nullable SearchPage search(SearchQuery query, String userId) throws StoreException {
    return null;
  }
}
