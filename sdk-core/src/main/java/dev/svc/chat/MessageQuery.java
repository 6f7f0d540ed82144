package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * Which page of a room's history {@link ChatClient#getMessages(String, MessageQuery)} fetches: the latest
 * messages, those before a sequence number, or those after one. Limits are 1 to 100.
 */
public final class MessageQuery {
  /** The page size the service uses when none is given. */
  public static final int DEFAULT_LIMIT = 50;
  /** The largest page size the service allows. */
  public static final int MAX_LIMIT = 100;

  private final int limit;
  private final @Nullable Long before;
  private final @Nullable Long after;

  private MessageQuery(int limit, @Nullable Long before, @Nullable Long after) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ": " + limit);
    }
    if (before != null && before < 0) throw new IllegalArgumentException("before < 0: " + before);
    if (after != null && after < 0) throw new IllegalArgumentException("after < 0: " + after);
    this.limit = limit;
    this.before = before;
    this.after = after;
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
        && (after == null ? q.after == null : after.equals(q.after));
  }

  @Override
  public int hashCode() {
    int h = limit;
    h = 31 * h + (before == null ? 0 : before.hashCode());
    return 31 * h + (after == null ? 0 : after.hashCode());
  }

  @Override
  public String toString() {
    return "MessageQuery{limit=" + limit + (before == null ? "" : ", before=" + before)
        + (after == null ? "" : ", after=" + after) + "}";
  }
}
