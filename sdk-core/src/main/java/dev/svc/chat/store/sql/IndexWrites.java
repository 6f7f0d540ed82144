package dev.svc.chat.store.sql;

import java.util.ArrayList;
import java.util.Iterator;
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
 *
 * <p>The deletes are one statement and the inserts a statement of up to {@value #MOST_ROWS} rows: a statement
 * through the binding costs a microsecond or two of CPU besides its work. A statement of many rows opens a
 * statement savepoint, at which both engines write what they hold as a segment (so a write of 128 messages
 * writes three small segments, its deletes, its first 64 rows and the rest at the commit, rather than one):
 * measured on the ingest benchmark, the index's CPU per message went from about 23 µs to 19 µs all the same.
 */
final class IndexWrites {
  /** The most rows an INSERT writes: a power of 4. */
  static final int MOST_ROWS = 64;
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

  /**
   * Writes the rows: deletes, then inserts, each in rowid order; empties the list of deleted message rows. The
   * deletes are one statement (the rows whose words changed join the list first, whose rowid order the statement
   * keeps) and the inserts a few of many rows each: the index's cost to a write is a few statements, not two a
   * message.
   */
  void write(SqlDatabase db) throws StoreException {
    for (long rowid : replaced) {
      db.update("INSERT OR IGNORE INTO " + SqlSearch.GONE + " (rowid) VALUES (?)", rowid);
    }
    final TreeSet<Long> gone = new TreeSet<>();
    db.query("SELECT rowid FROM " + SqlSearch.GONE, row -> gone.add(row.integer(0)));
    if (!gone.isEmpty()) {
      db.update("DELETE FROM " + SqlSearch.TABLE + " WHERE rowid IN (SELECT rowid FROM " + SqlSearch.GONE + ")");
      db.update("DELETE FROM " + SqlSearch.GONE);
    }
    List<Long> vanished = new ArrayList<>();
    for (long rowid : gone) {
      // deleted in this write: a row still there at that rowid is a message stored after the delete
      if (added.containsKey(rowid)
          && RoomRange.count(db, "SELECT count(*) FROM messages WHERE rowid = ?", rowid) == 0) {
        vanished.add(rowid);
      }
    }
    for (long rowid : vanished) added.remove(rowid);
    insert(db);
  }

  /**
   * Inserts the added rows in rowid order, {@value #MOST_ROWS} or fewer a statement: rows of 64, 16, 4 and 1, so
   * that a binding's statement cache holds four shapes, and a statement binds at most 128 values (SQLite before
   * 3.32, Android's among them, takes 999).
   */
  private void insert(SqlDatabase db) throws StoreException {
    Iterator<Map.Entry<Long, String>> rows = added.entrySet().iterator();
    int left = added.size();
    for (int size = MOST_ROWS; left > 0; size /= 4) {
      for (; left >= size; left -= size) {
        Object[] args = new Object[2 * size];
        for (int i = 0; i < size; i++) {
          Map.Entry<Long, String> row = rows.next();
          args[2 * i] = row.getKey();
          args[2 * i + 1] = row.getValue();
        }
        db.update(insertSql(size), args);
      }
    }
  }

  private static String insertSql(int rows) {
    StringBuilder sql = new StringBuilder("INSERT INTO " + SqlSearch.TABLE + " (rowid, words) VALUES (?, ?)");
    for (int i = 1; i < rows; i++) sql.append(", (?, ?)");
    return sql.toString();
  }

  private static boolean eq(String a, String b) {
    return a == null ? b == null : a.equals(b);
  }
}
