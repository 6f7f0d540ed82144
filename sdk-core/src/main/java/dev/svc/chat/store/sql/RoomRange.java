package dev.svc.chat.store.sql;

import dev.svc.chat.store.StoreException;

/**
 * A room's stored range: every seq in {@code [low_seq, seq_watermark]} is stored, so a page inside it can be
 * answered from the store. The range is kept from the rows themselves, never assumed: raising the watermark
 * keeps {@code low_seq} only when every message between the old and the new watermark is stored; messages
 * stored just below {@code low_seq} (an older page fetched on demand) extend it downwards; eviction raises it.
 * With no watermark ({@code seq_watermark = -1}) the range is empty and {@code low_seq} is 0; otherwise
 * {@code 1 <= low_seq <= seq_watermark + 1}, {@code seq_watermark + 1} meaning empty.
 */
final class RoomRange {
  /** Rows read per step when the range is extended downwards. */
  private static final int CHUNK = 256;

  private RoomRange() {
  }

  /**
   * Returns the room's {@code low_seq} after its watermark moves from {@code oldSeq} to {@code newSeq}.
   *
   * @param oldLow the {@code low_seq} before
   */
  static long afterWatermark(SqlDatabase db, String roomId, long oldLow, long oldSeq, long newSeq)
      throws StoreException {
    if (newSeq < 0) return 0;
    if (oldSeq < 0) return newSeq + 1;
    if (newSeq <= oldSeq) return Math.min(oldLow, newSeq + 1);
    long stored = count(db, "SELECT count(*) FROM messages WHERE room_id = ? AND seq > ? AND seq <= ?", roomId,
        oldSeq, newSeq);
    return stored == newSeq - oldSeq ? Math.min(oldLow, oldSeq + 1) : newSeq + 1;
  }

  /**
   * Returns the lowest {@code l <= low} such that every seq in {@code [l, low - 1]} of the room is stored.
   */
  static long extendDown(SqlDatabase db, String roomId, long low) throws StoreException {
    long[] next = {low};
    while (next[0] > 1) {
      long from = next[0];
      db.query("SELECT seq FROM messages WHERE room_id = ? AND seq < ? ORDER BY seq DESC LIMIT " + CHUNK, row -> {
        // seqs come down strictly: once one is missing, none of the rest can match again
        if (row.integer(0) == next[0] - 1) next[0]--;
      }, roomId, from);
      if (next[0] != from - CHUNK) break; // a gap, or the room's first message, within this chunk
    }
    return next[0];
  }

  /**
   * Drops the room's oldest messages beyond {@code max}, and raises its {@code low_seq} to the oldest kept.
   *
   * @return whether any were dropped
   */
  static boolean evictOldest(SqlDatabase db, String roomId, int max) throws StoreException {
    long count = count(db, "SELECT count(*) FROM messages WHERE room_id = ?", roomId);
    if (count <= max) return false;
    long oldestKept = count(db, "SELECT seq FROM messages WHERE room_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
        roomId, (long) max - 1);
    db.update("DELETE FROM messages WHERE room_id = ? AND seq < ?", roomId, oldestKept);
    db.update("UPDATE rooms SET low_seq = min(max(low_seq, ?), seq_watermark + 1)"
        + " WHERE id = ? AND seq_watermark >= 0", oldestKept, roomId);
    return true;
  }

  /** Returns the first column of a query's single row (0 when it has none). */
  static long count(SqlDatabase db, String sql, Object... args) throws StoreException {
    long[] value = {0};
    db.query(sql, row -> value[0] = row.integer(0), args);
    return value[0];
  }

  /** Returns a text column that the schema makes NOT NULL; a NULL there is damage. */
  static String text(SqlDatabase.Row row, int column) throws StoreException {
    String text = row.text(column);
    if (text == null) {
      throw new StoreException(StoreException.Kind.CORRUPT, "a NULL in a NOT NULL column " + column, null);
    }
    return text;
  }
}
