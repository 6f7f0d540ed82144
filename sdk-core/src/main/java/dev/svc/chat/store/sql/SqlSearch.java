package dev.svc.chat.store.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.SearchResult;
import dev.svc.chat.internal.json.FastMessageReader;
import dev.svc.chat.internal.search.FtsText;
import dev.svc.chat.internal.search.SearchRules;
import dev.svc.chat.internal.search.SearchSnippet;
import dev.svc.chat.internal.search.StoredCursor;
import dev.svc.chat.store.StoreException;

/**
 * The store's search index and its search (contract section 11, over the stored messages): the full-text table
 * {@value #TABLE}, FTS5 where the SQLite has it, else FTS4 (Android's framework SQLite), one row per stored message
 * with a word, whose rowid is the message row's. The words are {@link FtsText}'s, read by a tokenizer that leaves
 * them whole (FTS5 {@code ascii}, FTS4 {@code simple}), so both engines read the same tokens and the same MATCH
 * expression.
 *
 * <p>Invariants: a message row's rowid is a {@link MessageKeys} key, so the index's rowid order is newest first
 * by time, and it never changes while the row lives with the same {@code createdAt} (the store updates rows in
 * place, never {@code INSERT OR REPLACE}, and vacuums only emptied tables); the index rows of a write are written
 * in its transaction, at its end ({@link IndexWrites}); a message row deleted, whatever deletes it (an eviction, a
 * room removed, a clear), is listed in {@value #GONE} by the trigger {@value #DELETE_TRIGGER}, and its index row
 * goes before that transaction commits, so the list is empty between transactions.
 */
final class SqlSearch {
  static final String TABLE = "message_search";
  /** The rowids of the message rows deleted in the open transaction, whose index rows go at its end. */
  static final String GONE = "message_search_gone";
  static final String DELETE_TRIGGER = "message_search_delete";
  private static final String TRIGGER = "CREATE TRIGGER " + DELETE_TRIGGER + " AFTER DELETE ON messages BEGIN"
      + " INSERT OR IGNORE INTO " + GONE + " (rowid) VALUES (old.rowid); END";
  /** The columns a search reads of a match: its key, then the columns of its exact order. */
  private static final String MATCHES = "SELECT " + TABLE + ".rowid, m.created_at, m.seq, m.room_id FROM " + TABLE
      + " CROSS JOIN messages m ON m.rowid = " + TABLE + ".rowid WHERE " + TABLE + " MATCH ? AND m.deleted = 0"
      + " AND m.room_id IN (SELECT id FROM rooms WHERE members = '[]' OR instr(members, ?) > 0"
      + " OR instr(members, ?) > 0)";
  /** The newest first: by time, then seq, then room, descending (a room id's UTF-8 order, as SQLite's). */
  private static final Comparator<Match> NEWEST_FIRST = new Comparator<Match>() {
    @Override
    public int compare(Match a, Match b) {
      if (a.createdAt != b.createdAt) return a.createdAt > b.createdAt ? -1 : 1;
      if (a.seq != b.seq) return a.seq > b.seq ? -1 : 1;
      return -codePointOrder(a.roomId, b.roomId);
    }
  };

  private SqlSearch() {
  }

  /**
   * Creates the table, the list of deleted rows and its trigger: FTS5 when the SQLite was built with it, else
   * FTS4. The SQLite is asked rather than tried: a failed CREATE VIRTUAL TABLE can leave its table behind in the
   * open transaction on some builds (sqlite4java's, seen under Robolectric).
   *
   * <p>Neither engine keeps the sizes of the rows (FTS5 {@code columnsize=0}, FTS4 {@code matchinfo=fts3}): they
   * serve ranking, which the search does not do (it orders by rowid), and cost a row written and deleted with
   * each message. FTS5 merges its segments 8 at a time ({@code automerge}, 4 by default) into pages of 8,000
   * bytes ({@code pgsz}, 4,050 by default): fewer merges and fewer pages written at each commit, which is most of
   * the index's cost to a write; a query reads a few more segments, within its target. (FTS5 without its own
   * copy of the words, {@code contentless_delete}, was measured slower to write: each delete rewrites a
   * tombstone page.)
   */
  static void create(SqlDatabase db) throws StoreException {
    boolean[] fts5 = {false};
    db.query("SELECT sqlite_compileoption_used('ENABLE_FTS5')", row -> fts5[0] = row.integer(0) == 1);
    db.update("CREATE VIRTUAL TABLE " + TABLE + " USING " + (fts5[0]
        ? "fts5(words, tokenize='ascii', columnsize=0)" : "fts4(words, tokenize=simple, matchinfo=fts3)"));
    if (fts5[0]) {
      db.update("INSERT INTO " + TABLE + " (" + TABLE + ", rank) VALUES ('automerge', 8)");
      db.update("INSERT INTO " + TABLE + " (" + TABLE + ", rank) VALUES ('pgsz', 8000)");
    }
    db.update("CREATE TABLE " + GONE + " (rowid INTEGER PRIMARY KEY)");
    db.update(TRIGGER);
  }

  /**
   * Version 7 to 8: the index of version 7 (hex words, rowids in arrival order) goes, and the message rows take
   * {@link MessageKeys} rowids (newest last); the index of version 9 is made from them by the next step.
   */
  static void rekey(SqlDatabase db) throws StoreException {
    dropIndex(db);
    final List<long[]> rows = new ArrayList<>();
    db.query("SELECT rowid, created_at FROM messages ORDER BY created_at, rowid",
        row -> rows.add(new long[] {row.integer(0), row.integer(1)}));
    db.update("UPDATE messages SET rowid = -rowid"); // out of the way of the keys, which are at least 0
    long previous = -1;
    for (long[] row : rows) {
      long first = MessageKeys.first(row[1]);
      long key = previous >= first ? previous + 1 : first;
      if (key > MessageKeys.last(row[1])) key = MessageKeys.free(db, first, MessageKeys.last(row[1]));
      db.update("UPDATE messages SET rowid = ? WHERE rowid = ?", key, -row[0]);
      previous = key;
    }
  }

  /**
   * Version 8 to 9: the index is made again, with the options of {@link #create}, and filled with every stored
   * message's words. Also from a database at version 8 without the index (one of version 7 migrated by this code).
   */
  static void reindex(SqlDatabase db) throws StoreException {
    dropIndex(db);
    create(db);
    final List<Long> rowids = new ArrayList<>();
    final List<String> words = new ArrayList<>();
    db.query("SELECT rowid, json FROM messages WHERE deleted = 0 ORDER BY rowid", row -> {
      String document = FtsText.document(RowJson.message(RoomRange.text(row, 1)));
      if (document != null) {
        rowids.add(row.integer(0));
        words.add(document);
      }
    });
    for (int i = 0; i < rowids.size(); i++) {
      db.update("INSERT INTO " + TABLE + " (rowid, words) VALUES (?, ?)", rowids.get(i), words.get(i));
    }
  }

  private static void dropIndex(SqlDatabase db) throws StoreException {
    db.update("DROP TRIGGER IF EXISTS " + DELETE_TRIGGER);
    db.update("DROP TABLE IF EXISTS " + TABLE);
    db.update("DROP TABLE IF EXISTS " + GONE);
  }

  /**
   * Empties the index after every message row was deleted, and merges it whole: the words of deleted rows stay
   * in the index's pages until merged, and a cleared store keeps no trace of them.
   */
  static void cleared(SqlDatabase db) throws StoreException {
    db.update("DELETE FROM " + GONE);
    db.update("DELETE FROM " + TABLE);
    db.update("INSERT INTO " + TABLE + " (" + TABLE + ") VALUES ('optimize')");
  }

  /**
   * Searches the stored messages of the user's current rooms: rooms stored (a room the user left is removed from
   * the store) whose members are unknown or include {@code userId}.
   *
   * <p>The index gives the matches newest first by time (their rowids), so only the page's matches and one more
   * are read, then every match of the last one's time (told apart by the rows' columns), whatever the number
   * of matches: a common word is as quick as a rare one.
   *
   * @throws IllegalArgumentException for a query without a word, narrowed by thread (the stored messages keep no
   *     thread), or with a cursor this search did not give
   */
  static SearchPage search(SqlDatabase db, FastMessageReader reader, SearchQuery query, String userId)
      throws StoreException {
    final List<SearchRules.Term> terms = SearchRules.parse(query.text());
    if (terms == null) throw new IllegalArgumentException("the search text has no word: " + query.text());
    if (query.threadId() != null) throw new IllegalArgumentException("the store cannot narrow a search by thread");
    String key = StoredCursor.searchKey(userId, SearchRules.canonical(terms), query.roomId(), query.senderId());
    StoredCursor after = null;
    if (query.cursor() != null) {
      after = StoredCursor.decode(query.cursor(), key);
      if (after == null) throw new IllegalArgumentException("a cursor this search of the store did not give");
    }
    // members is written by RowJson.strings, without blanks: a member's JSON string is found at an element's start
    String member = RowJson.strings(Collections.singletonList(userId));
    member = member.substring(1, member.length() - 1);
    // CROSS JOIN keeps the index the outer loop, read in its rowid order, so the LIMIT stops it
    StringBuilder sql = new StringBuilder(MATCHES);
    List<Object> args = new ArrayList<>();
    args.add(FtsText.match(terms, query.roomId()));
    args.add("[" + member);
    args.add("," + member);
    if (query.roomId() != null) {
      sql.append(" AND m.room_id = ?");
      args.add(query.roomId());
    }
    if (query.senderId() != null) {
      sql.append(" AND m.sender_id = ?");
      args.add(query.senderId());
    }
    if (after != null) {
      sql.append(" AND " + TABLE + ".rowid <= ?");
      args.add(MessageKeys.last(after.createdAt()));
      sql.append(" AND (m.created_at < ? OR (m.created_at = ? AND (m.seq < ? OR (m.seq = ? AND m.room_id < ?))))");
      Collections.addAll(args, after.createdAt(), after.createdAt(), after.seq(), after.seq(), after.roomId());
    }
    int limit = query.limit();
    List<Object> pageArgs = new ArrayList<>(args);
    pageArgs.add(limit + 1);
    List<Match> matches = matches(db, sql + " ORDER BY " + TABLE + ".rowid DESC LIMIT ?", pageArgs);
    if (matches.size() > limit) {
      // the last match's time may hold more matches than were read: all of that time are read, and sorted
      long first = MessageKeys.firstOfTime(matches.get(limit).rowid);
      List<Match> newer = new ArrayList<>();
      for (Match m : matches) {
        if (m.rowid > (first | MessageKeys.LOW_MASK)) newer.add(m);
      }
      List<Object> timeArgs = new ArrayList<>(args);
      Collections.addAll(timeArgs, first, first | MessageKeys.LOW_MASK);
      newer.addAll(matches(db, sql + " AND " + TABLE + ".rowid >= ? AND " + TABLE + ".rowid <= ?", timeArgs));
      matches = newer;
    }
    Collections.sort(matches, NEWEST_FIRST);
    final List<SearchResult> results = new ArrayList<>();
    for (Match match : matches.subList(0, Math.min(limit, matches.size()))) {
      db.query("SELECT json FROM messages WHERE rowid = ?", row -> {
        Message m = RowJson.message(RoomRange.text(row, 0), reader);
        results.add(new SearchResult(m, SearchSnippet.of(m, terms)));
      }, match.rowid);
    }
    String next = null;
    if (matches.size() > limit) {
      Match last = matches.get(limit - 1);
      next = new StoredCursor(last.createdAt, last.seq, last.roomId).encode(key);
    }
    return new SearchPage(results, next, true);
  }

  private static List<Match> matches(SqlDatabase db, String sql, List<Object> args) throws StoreException {
    final List<Match> out = new ArrayList<>();
    db.query(sql, row -> out.add(new Match(row.integer(0), row.integer(1), row.integer(2),
        RoomRange.text(row, 3))), args.toArray());
    return out;
  }

  /** Compares by code point, which is SQLite's binary order of the UTF-8 text. */
  static int codePointOrder(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) return x < y ? -1 : 1;
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  /** A match's key and the columns of its order. */
  private static final class Match {
    final long rowid;
    final long createdAt;
    final long seq;
    final String roomId;

    Match(long rowid, long createdAt, long seq, String roomId) {
      this.rowid = rowid;
      this.createdAt = createdAt;
      this.seq = seq;
      this.roomId = roomId;
    }
  }
}
