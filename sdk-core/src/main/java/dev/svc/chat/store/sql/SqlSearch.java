package dev.svc.chat.store.sql;

import java.util.ArrayList;
import java.util.Collections;
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
 * {@value #TABLE}, FTS5 where the SQLite has it, else FTS4, one row per stored message with a word, whose rowid
 * is the message row's. The words are {@link FtsText}'s, so both engines read the same tokens and the same
 * MATCH expression.
 *
 * <p>Invariants: a message row's rowid never changes while the row lives (the store updates rows in place, never
 * {@code INSERT OR REPLACE}, and vacuums only emptied tables); the index row of a message is written in the same
 * transaction as the message (by {@link WriteApplier}) and deleted with it (by the trigger
 * {@value #DELETE_TRIGGER}, whatever deletes it: an eviction, a room removed, a clear).
 */
final class SqlSearch {
  static final String TABLE = "message_search";
  static final String DELETE_TRIGGER = "message_search_delete";
  private static final String TRIGGER = "CREATE TRIGGER " + DELETE_TRIGGER + " AFTER DELETE ON messages BEGIN"
      + " DELETE FROM " + TABLE + " WHERE rowid = old.rowid; END";

  private SqlSearch() {
  }

  /**
   * Creates the table and its trigger: FTS5 when the SQLite was built with it, else FTS4 (Android's framework
   * SQLite). The SQLite is asked rather than tried: a failed CREATE VIRTUAL TABLE can leave its table behind in
   * the open transaction on some builds (sqlite4java's, seen under Robolectric).
   */
  static void create(SqlDatabase db) throws StoreException {
    boolean[] fts5 = {false};
    db.query("SELECT sqlite_compileoption_used('ENABLE_FTS5')", row -> fts5[0] = row.integer(0) == 1);
    db.update("CREATE VIRTUAL TABLE " + TABLE + " USING " + (fts5[0] ? "fts5" : "fts4") + "(words)");
    db.update(TRIGGER);
  }

  /** Version 5 to 6: creates the index and fills it with every stored message's words. */
  static void migrate(SqlDatabase db) throws StoreException {
    create(db);
    final List<Long> rowids = new ArrayList<>();
    final List<String> words = new ArrayList<>();
    db.query("SELECT rowid, json FROM messages WHERE deleted = 0", row -> {
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

  /** Indexes a message just inserted. */
  static void inserted(SqlDatabase db, Message m) throws StoreException {
    String document = FtsText.document(m);
    if (document == null) return;
    db.update("INSERT INTO " + TABLE + " (rowid, words) SELECT rowid, ? FROM messages WHERE id = ?", document, m.id());
  }

  /** Indexes a message updated to a newer revision: its old words go, its new ones (if any) come. */
  static void updated(SqlDatabase db, Message m) throws StoreException {
    db.update("DELETE FROM " + TABLE + " WHERE rowid = (SELECT rowid FROM messages WHERE id = ?)", m.id());
    inserted(db, m);
  }

  /**
   * Searches the stored messages of the user's current rooms: rooms stored (a room the user left is removed from
   * the store) whose members are unknown or include {@code userId}.
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
    // The matches are sorted by their keys alone, and only the page's rows are read whole: a common word matches
    // thousands of rows, whose JSON would otherwise go through the sort.
    StringBuilder sql = new StringBuilder("SELECT m.rowid FROM " + TABLE
        + " JOIN messages m ON m.rowid = " + TABLE + ".rowid WHERE " + TABLE + " MATCH ? AND m.deleted = 0"
        + " AND m.room_id IN (SELECT id FROM rooms WHERE members = '[]' OR instr(members, ?) > 0"
        + " OR instr(members, ?) > 0)");
    List<Object> args = new ArrayList<>();
    args.add(FtsText.match(terms));
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
      sql.append(" AND (m.created_at < ? OR (m.created_at = ? AND (m.seq < ? OR (m.seq = ? AND m.room_id < ?))))");
      Collections.addAll(args, after.createdAt(), after.createdAt(), after.seq(), after.seq(), after.roomId());
    }
    sql.append(" ORDER BY m.created_at DESC, m.seq DESC, m.room_id DESC LIMIT ?");
    args.add(query.limit() + 1);
    String page = "SELECT json FROM messages WHERE rowid IN (" + sql + ")"
        + " ORDER BY created_at DESC, seq DESC, room_id DESC";
    final List<SearchResult> results = new ArrayList<>();
    final boolean[] more = {false};
    final int limit = query.limit();
    db.query(page, row -> {
      if (results.size() == limit) {
        more[0] = true; // the row past the page: only says there is a next one
        return;
      }
      Message m = RowJson.message(RoomRange.text(row, 0), reader);
      results.add(new SearchResult(m, SearchSnippet.of(m, terms)));
    }, args.toArray());
    String next = null;
    if (more[0]) {
      Message m = results.get(limit - 1).message();
      next = new StoredCursor(m.createdAt(), m.seq(), m.roomId()).encode(key);
    }
    return new SearchPage(results, next, true);
  }
}
