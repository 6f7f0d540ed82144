package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * A message search for {@link ChatClient#searchMessages(SearchQuery)}: the words to find and what narrows
 * them. Immutable; each narrowing method returns a new query, so that
 * {@code SearchQuery.of("deploy*").room(roomId).limit(10)} reads as it searches. The rules of the words are in
 * {@code docs/search.md}: words match case- and accent-insensitively, all of them, {@code "quoted phrases"}
 * consecutively, {@code prefix*} as a prefix; nothing else has a meaning.
 */
public final class SearchQuery {
  /** The most code points of a query. */
  public static final int MAX_TEXT = 200;
  /** The page size the service uses when none is given. */
  public static final int DEFAULT_LIMIT = 20;
  /** The largest page size the service allows. */
  public static final int MAX_LIMIT = 50;

  private final String text;
  private final @Nullable String roomId;
  private final @Nullable String senderId;
  private final @Nullable String threadId;
  private final int limit;
  private final @Nullable String cursor;

  private SearchQuery(String text, @Nullable String roomId, @Nullable String senderId, @Nullable String threadId,
      int limit, @Nullable String cursor) {
    this.text = text;
    this.roomId = roomId;
    this.senderId = senderId;
    this.threadId = threadId;
    this.limit = limit;
    this.cursor = cursor;
  }

  /**
   * Returns a search of all the user's rooms for {@code text}, a page of {@value #DEFAULT_LIMIT}.
   *
   * @param text 1 to 200 code points, not only blanks
   * @return the query
   * @throws IllegalArgumentException if the text is empty, blank or longer than 200 code points
   */
  public static SearchQuery of(String text) {
    if (text == null) throw new NullPointerException("text == null");
    int length = text.codePointCount(0, text.length());
    if (length == 0 || length > MAX_TEXT) {
      throw new IllegalArgumentException("a search text must be 1 to " + MAX_TEXT + " code points: " + length);
    }
    if (text.trim().isEmpty()) throw new IllegalArgumentException("a search text must not be blank");
    return new SearchQuery(text, null, null, null, DEFAULT_LIMIT, null);
  }

  /**
   * Returns this query narrowed to one room (a room the user is not in fails the search with
   * {@code forbidden}).
   *
   * @param roomId the room id
   * @return a new query
   */
  public SearchQuery room(String roomId) {
    if (roomId == null) throw new NullPointerException("roomId == null");
    if (roomId.isEmpty()) throw new IllegalArgumentException("roomId is empty");
    return new SearchQuery(text, roomId, senderId, threadId, limit, cursor);
  }

  /**
   * Returns this query narrowed to one sender's messages.
   *
   * @param senderId the sender's user id
   * @return a new query
   */
  public SearchQuery sender(String senderId) {
    if (senderId == null) throw new NullPointerException("senderId == null");
    if (senderId.isEmpty()) throw new IllegalArgumentException("senderId is empty");
    return new SearchQuery(text, roomId, senderId, threadId, limit, cursor);
  }

  /**
   * Returns this query narrowed to the replies of one thread (the messages whose {@code threadId} it is, as
   * {@code getMessages} with a thread lists them). The offline store cannot narrow by thread:
   * {@link ChatClient#searchStored} refuses such a query with {@code bad_request}.
   *
   * @param threadId the id of the thread's root message
   * @return a new query
   */
  public SearchQuery thread(String threadId) {
    if (threadId == null) throw new NullPointerException("threadId == null");
    if (threadId.isEmpty()) throw new IllegalArgumentException("threadId is empty");
    return new SearchQuery(text, roomId, senderId, threadId, limit, cursor);
  }

  /**
   * Returns this query with another page size.
   *
   * @param limit 1 to 50
   * @return a new query
   * @throws IllegalArgumentException if the limit is outside 1 to 50
   */
  public SearchQuery limit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ": " + limit);
    }
    return new SearchQuery(text, roomId, senderId, threadId, limit, cursor);
  }

  /**
   * Returns this query continuing after a page: {@code cursor} is that page's {@link SearchPage#nextCursor()},
   * given by the same search (another search's cursor fails with {@code bad_request}).
   *
   * @param cursor the cursor, opaque
   * @return a new query
   */
  public SearchQuery after(String cursor) {
    if (cursor == null) throw new NullPointerException("cursor == null");
    if (cursor.isEmpty()) throw new IllegalArgumentException("cursor is empty");
    return new SearchQuery(text, roomId, senderId, threadId, limit, cursor);
  }

  /**
   * Returns the words to find, as given.
   *
   * @return the text
   */
  public String text() {
    return text;
  }

  /**
   * Returns the one room searched.
   *
   * @return the room id, or null for all the user's rooms
   */
  public @Nullable String roomId() {
    return roomId;
  }

  /**
   * Returns the one sender whose messages are searched.
   *
   * @return the user id, or null for every sender
   */
  public @Nullable String senderId() {
    return senderId;
  }

  /**
   * Returns the one thread whose replies are searched.
   *
   * @return the root message's id, or null for every message
   */
  public @Nullable String threadId() {
    return threadId;
  }

  /**
   * Returns the page size.
   *
   * @return 1 to 50
   */
  public int limit() {
    return limit;
  }

  /**
   * Returns where the page starts.
   *
   * @return a previous page's cursor, or null for the first page
   */
  public @Nullable String cursor() {
    return cursor;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof SearchQuery)) return false;
    SearchQuery q = (SearchQuery) o;
    return limit == q.limit && text.equals(q.text) && same(roomId, q.roomId) && same(senderId, q.senderId)
        && same(threadId, q.threadId) && same(cursor, q.cursor);
  }

  private static boolean same(@Nullable String a, @Nullable String b) {
    return a == null ? b == null : a.equals(b);
  }

  @Override
  public int hashCode() {
    int h = text.hashCode();
    h = 31 * h + (roomId == null ? 0 : roomId.hashCode());
    h = 31 * h + (senderId == null ? 0 : senderId.hashCode());
    h = 31 * h + (threadId == null ? 0 : threadId.hashCode());
    h = 31 * h + limit;
    return 31 * h + (cursor == null ? 0 : cursor.hashCode());
  }

  @Override
  public String toString() {
    return "SearchQuery{text=" + text + ", roomId=" + roomId + ", senderId=" + senderId + ", threadId=" + threadId
        + ", limit=" + limit + ", cursor=" + (cursor == null ? null : "...") + "}";
  }
}
