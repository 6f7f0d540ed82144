package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * Which page of a room's history {@link ChatClient#getMessages(String, MessageQuery)} fetches: the latest
 * messages, those before a sequence number, or those after one. Limits are 1 to 100. {@link #inThread} narrows
 * it to one thread's replies, {@link #mainOnly} to the messages that are no thread replies.
 */
public final class MessageQuery {
  /** The page size the service uses when none is given. */
  public static final int DEFAULT_LIMIT = 50;
  /** The largest page size the service allows. */
  public static final int MAX_LIMIT = 100;

  private final int limit;
  private final @Nullable Long before;
  private final @Nullable Long after;
  private final @Nullable String threadId;
  private final boolean mainOnly;

  private MessageQuery(int limit, @Nullable Long before, @Nullable Long after) {
    this(limit, before, after, null, false);
  }

  private MessageQuery(int limit, @Nullable Long before, @Nullable Long after, @Nullable String threadId,
      boolean mainOnly) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ": " + limit);
    }
    if (before != null && before < 0) throw new IllegalArgumentException("before < 0: " + before);
    if (after != null && after < 0) throw new IllegalArgumentException("after < 0: " + after);
    this.limit = limit;
    this.before = before;
    this.after = after;
    if (threadId != null && threadId.isEmpty()) throw new IllegalArgumentException("threadId is empty");
    if (threadId != null && mainOnly) throw new IllegalArgumentException("a thread's query cannot be mainOnly");
    this.threadId = threadId;
    this.mainOnly = mainOnly;
  }

  /**
   * Returns this query narrowed to the replies of one thread, in ascending {@code seq} with the same paging;
   * deleted replies stay as tombstones.
   *
   * @param rootId the id of the thread's root, a message of the room
   * @return a new query
   * @throws IllegalArgumentException if {@code rootId} is empty, or this query is {@link #mainOnly()}
   */
  public MessageQuery inThread(String rootId) {
    if (rootId == null) throw new NullPointerException("rootId == null");
    return new MessageQuery(limit, before, after, rootId, false);
  }

  /**
   * Returns this query narrowed to the room's main timeline: the messages that are not thread replies.
   *
   * @return a new query
   * @throws IllegalArgumentException if this query is {@link #inThread narrowed to a thread}
   */
  public MessageQuery mainTimeline() {
    return new MessageQuery(limit, before, after, threadId, true);
  }

  /**
   * Returns the root of the thread the query is narrowed to.
   *
   * @return the root's id, or null for a query of the whole room
   */
  public @Nullable String threadId() {
    return threadId;
  }

  /**
   * Returns whether the query leaves thread replies out.
   *
   * @return true for a {@link #mainTimeline()} query
   */
  public boolean mainOnly() {
    return mainOnly;
  }

  /**
   * Returns whether the query asks for every message of the room in its range (neither a thread nor the main
   * timeline).
   *
   * @return true when {@link #threadId()} is null and {@link #mainOnly()} false
   */
  public boolean wholeRoom() {
    return threadId == null && !mainOnly;
  }

  /**
   * Returns a query for the latest {@code limit} messages.
   *
   * @param limit 1 to 100
   * @return the query
   */
  public static MessageQuery latest(int limit) {
    return new MessageQuery(limit, null, null);
  }

  /**
   * Returns a query for the last {@code limit} messages with a sequence number below {@code seq}: the page
   * before one already shown.
   *
   * @param seq the exclusive upper bound
   * @param limit 1 to 100
   * @return the query
   */
  public static MessageQuery before(long seq, int limit) {
    return new MessageQuery(limit, seq, null);
  }

  /**
   * Returns a query for the first {@code limit} messages with a sequence number above {@code seq}: what
   * arrived after the last message seen.
   *
   * @param seq the exclusive lower bound
   * @param limit 1 to 100
   * @return the query
   */
  public static MessageQuery after(long seq, int limit) {
    return new MessageQuery(limit, null, seq);
  }

  /**
   * Returns the page size.
   *
   * @return 1 to 100
   */
  public int limit() {
    return limit;
  }

  /**
   * Returns the exclusive upper bound of a {@link #before(long, int)} query.
   *
   * @return the bound, or null for other queries
   */
  public @Nullable Long before() {
    return before;
  }

  /**
   * Returns the exclusive lower bound of an {@link #after(long, int)} query.
   *
   * @return the bound, or null for other queries
   */
  public @Nullable Long after() {
    return after;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof MessageQuery)) return false;
    MessageQuery q = (MessageQuery) o;
    return limit == q.limit && (before == null ? q.before == null : before.equals(q.before))
        && (after == null ? q.after == null : after.equals(q.after))
        && (threadId == null ? q.threadId == null : threadId.equals(q.threadId)) && mainOnly == q.mainOnly;
  }

  @Override
  public int hashCode() {
    int h = limit;
    h = 31 * h + (before == null ? 0 : before.hashCode());
    h = 31 * h + (after == null ? 0 : after.hashCode());
    h = 31 * h + (threadId == null ? 0 : threadId.hashCode());
    return 31 * h + (mainOnly ? 1 : 0);
  }

  @Override
  public String toString() {
    return "MessageQuery{limit=" + limit + (before == null ? "" : ", before=" + before)
        + (after == null ? "" : ", after=" + after) + (threadId == null ? "" : ", threadId=" + threadId)
        + (mainOnly ? ", mainOnly" : "") + "}";
  }
}
