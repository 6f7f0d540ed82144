package dev.svc.chat.store.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.svc.chat.Message;
import dev.svc.chat.internal.search.FtsText;
import dev.svc.chat.store.StoreException;

/**
 * The search index's rows of one write, written at its end, in its transaction, all deletes then all inserts,
 * each in rowid order. Both FTS engines keep a transaction's index changes in memory only while each comes at a
 * higher rowid than the one before; one at a lower rowid first writes out what they hold as a segment of its
 * own. A write stores new messages (high rowids) and evicts old ones (low rowids, room by room): in their own
 * order they wrote a segment for nearly every eviction, and the index cost three times as much.
 *
 * <p>The rows deleted are those of the message rows deleted in the write (listed by the trigger
 * {@value SqlSearch#DELETE_TRIGGER} in {@value SqlSearch#GONE}, whatever deleted them) and those of the messages
 * whose words changed; a row added for a message the same write deleted is not written.
 */
final class IndexWrites {
  private final TreeMap<Long, String> added = new TreeMap<>();
  private final TreeSet<Long> replaced = new TreeSet<>();

  /** Indexes a message just stored at {@code rowid}. */
  void inserted(long rowid, Message m) {
    String document = FtsText.document(m);
    if (document != null) added.put(rowid, document);
  }

  /**
   * Indexes a message updated from {@code old} at {@code oldRowid} to {@code m} at {@code rowid}: nothing when its
   * words and rowid are the same (a revision that changed no text), else its old row goes and its new one (if
   * any) comes.
   */
  void updated(long oldRowid, Message old, long rowid, Message m) {
    String document = FtsText.document(m);
    if (oldRowid == rowid && eq(document, FtsText.document(old))) return;
    added.remove(oldRowid);
    replaced.add(oldRowid);
    if (document != null) added.put(rowid, document);
  }

  /** Writes the rows: deletes, then inserts, each in rowid order; empties the list of deleted message rows. */
  void write(SqlDatabase db) throws StoreException {
    final TreeSet<Long> gone = new TreeSet<>();
    db.query("SELECT rowid FROM " + SqlSearch.GONE, row -> gone.add(row.integer(0)));
    TreeSet<Long> deletes = new TreeSet<>(replaced);
    deletes.addAll(gone);
    for (long rowid : deletes) db.update("DELETE FROM " + SqlSearch.TABLE + " WHERE rowid = ?", rowid);
    if (!gone.isEmpty()) db.update("DELETE FROM " + SqlSearch.GONE);
    List<Long> vanished = new ArrayList<>();
    for (long rowid : gone) {
      // deleted in this write: a row still there at that rowid is a message stored after the delete
      if (added.containsKey(rowid)
          && RoomRange.count(db, "SELECT count(*) FROM messages WHERE rowid = ?", rowid) == 0) {
        vanished.add(rowid);
      }
    }
    for (long rowid : vanished) added.remove(rowid);
    for (Map.Entry<Long, String> row : added.entrySet()) {
      db.update("INSERT INTO " + SqlSearch.TABLE + " (rowid, words) VALUES (?, ?)", row.getKey(), row.getValue());
    }
  }

  private static boolean eq(String a, String b) {
    return a == null ? b == null : a.equals(b);
  }
}
