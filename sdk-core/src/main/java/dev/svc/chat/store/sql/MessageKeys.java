package dev.svc.chat.store.sql;

import dev.svc.chat.store.StoreException;

/**
 * The rowids of the message rows, which the search index's rows share ({@link SqlSearch}): a message's rowid
 * holds its {@code createdAt} above its low {@value #LOW_BITS} bits, so that the index, which keeps each word's
 * matches in rowid order, gives them newest first and a search stops at its page instead of sorting every match.
 *
 * <p>Invariant: {@code rowid >> LOW_BITS == time(created_at)} for every message row ({@link #time}: the
 * {@code createdAt} within {@code [0, MAX_TIME]}, milliseconds up to the year 2109). Rows of one time are told
 * apart by their low bits, in no particular order: a search sorts its last time's rows by their columns.
 */
final class MessageKeys {
  /** The bits that tell apart messages of the same millisecond: 2,097,152 of them. */
  static final int LOW_BITS = 21;
  static final long LOW_MASK = (1L << LOW_BITS) - 1;
  static final long MAX_TIME = (1L << (63 - LOW_BITS)) - 1;

  private MessageKeys() {
  }

  /** Returns the time a message's rowid holds: {@code createdAt} within {@code [0, MAX_TIME]}. */
  static long time(long createdAt) {
    return Math.max(0, Math.min(MAX_TIME, createdAt));
  }

  /** Returns the lowest rowid of a message created at {@code createdAt}. */
  static long first(long createdAt) {
    return time(createdAt) << LOW_BITS;
  }

  /** Returns the highest rowid of a message created at {@code createdAt}. */
  static long last(long createdAt) {
    return first(createdAt) | LOW_MASK;
  }

  /** Returns the lowest rowid of the time of {@code rowid}. */
  static long firstOfTime(long rowid) {
    return rowid & ~LOW_MASK;
  }

  /**
   * Returns a rowid no message row has, for a message created at {@code createdAt}: above the highest of its
   * time, else the lowest free one of its time.
   *
   * @throws StoreException IO when the store holds {@code 2^LOW_BITS} messages of that millisecond
   */
  static long free(SqlDatabase db, long createdAt) throws StoreException {
    return free(db, first(createdAt), last(createdAt));
  }

  /** Returns a rowid in {@code [first, last]} that no message row has. */
  static long free(SqlDatabase db, long first, long last) throws StoreException {
    long[] top = {-1};
    db.query("SELECT rowid FROM messages WHERE rowid >= ? AND rowid <= ? ORDER BY rowid DESC LIMIT 1",
        row -> top[0] = row.integer(0), first, last);
    if (top[0] < 0) return first;
    if (top[0] < last) return top[0] + 1;
    if (RoomRange.count(db, "SELECT count(*) FROM messages WHERE rowid = ?", first) == 0) return first;
    long[] gap = {-1};
    db.query("SELECT a.rowid + 1 FROM messages a WHERE a.rowid >= ? AND a.rowid < ?"
        + " AND NOT EXISTS (SELECT 1 FROM messages b WHERE b.rowid = a.rowid + 1) ORDER BY a.rowid LIMIT 1",
        row -> gap[0] = row.integer(0), first, last);
    if (gap[0] < 0) {
      throw new StoreException(StoreException.Kind.IO, "the store holds " + (last - first + 1)
          + " messages of the same millisecond, the most it can", null);
    }
    return gap[0];
  }
}
