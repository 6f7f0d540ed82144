package dev.svc.chat.store.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.internal.json.FastMessageReader;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.RoomDigest;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredSend;
import dev.svc.chat.store.StoredState;
import org.jspecify.annotations.Nullable;

/**
 * The {@link ChatStore} of the SDK's SQLite stores, over any platform's {@link SqlDatabase}: one schema, one
 * set of forward migrations, one implementation of the store's rules.
 *
 * <ul>
 *   <li>A message is stored in its latest revision: a write of a {@code rev} at or below the stored one is
 *       ignored. A receipt's {@code seq} never moves backwards. The store tells what events delivered
 *       ({@link StoreWrite#messages()}) from what it kept from the service's answers
 *       ({@link StoreWrite#keptMessages()}): only the former is among {@link StoredState#changedAbove()}.
 *   <li>A room's stored range runs without a gap from its oldest message kept up to its {@code seq}
 *       watermark. {@link #messages} answers a page only when the range holds all of it: the latest page ends
 *       at the watermark (the store knows nothing newer); an {@code after} page is answered only when it ends
 *       at or below the watermark, and then says {@code hasMore} (newer messages may exist on the service);
 *       a page going back says {@code hasMore} when its oldest message is above seq 1.
 *   <li>Bounds: after each write, a room beyond {@code maxMessagesPerRoom} loses its oldest messages (a page
 *       of them is then fetched from the service again), and beyond {@code maxRooms} the least recently
 *       active rooms go with their messages and receipts. A room's activity is the latest of its creation,
 *       its last message's time and its newest stored message's time.
 *   <li>Search ({@link #search}): each stored message's words are indexed in the transaction that writes the
 *       message, and its index row goes with it ({@link SqlSearch}).
 * </ul>
 *
 * Used from one thread at a time, as {@link ChatStore} says.
 */
public final class SqlChatStore implements ChatStore {
  /** The messages kept per room when not said otherwise. */
  public static final int DEFAULT_MAX_MESSAGES_PER_ROOM = 1000;
  /** The rooms kept when not said otherwise. */
  public static final int DEFAULT_MAX_ROOMS = 1000;

  private static final String ROOM_COLUMNS = "id, name, members, created_at, last_message_seq, last_message_at, rev,"
      + " seq_watermark, rev_watermark";

  private final SqlDatabase db;
  private final int maxMessagesPerRoom;
  private final int maxRooms;
  /** Reads the stored messages (the store is used from one thread at a time, and so is this reader). */
  private final FastMessageReader rows = new FastMessageReader();
  private boolean closed;

  /**
   * Opens a store over {@code database}: creates the schema in a new database, migrates an older one, refuses
   * one it cannot use. On failure the database is closed.
   *
   * @param database the open database, which the store then owns (its {@link #close()} closes it)
   * @param maxMessagesPerRoom the messages kept per room, at least 1
   * @param maxRooms the rooms kept, at least 1
   * @throws StoreException {@link StoreException.Kind#NEWER_SCHEMA} for a database of a newer SDK,
   *     {@link StoreException.Kind#CORRUPT} for one that is damaged or not a store's, else
   *     {@link StoreException.Kind#IO}
   */
  public SqlChatStore(SqlDatabase database, int maxMessagesPerRoom, int maxRooms) throws StoreException {
    if (database == null) throw new NullPointerException("database == null");
    if (maxMessagesPerRoom < 1) throw new IllegalArgumentException("maxMessagesPerRoom < 1: " + maxMessagesPerRoom);
    if (maxRooms < 1) throw new IllegalArgumentException("maxRooms < 1: " + maxRooms);
    this.db = database;
    this.maxMessagesPerRoom = maxMessagesPerRoom;
    this.maxRooms = maxRooms;
    try {
      SqlSchema.open(database);
    } catch (StoreException | RuntimeException e) {
      database.close();
      throw e;
    }
  }

  @Override
  public StoredState load() throws StoreException {
    checkOpen();
    List<StoredRoom> rooms = rooms();
    List<Receipt> receipts = new ArrayList<>();
    db.query("SELECT room_id, user_id, message_id, seq, read_at FROM receipts ORDER BY room_id, user_id",
        row -> receipts.add(Receipt.of(RoomRange.text(row, 0), RoomRange.text(row, 1), RoomRange.text(row, 2),
            row.integer(3), row.integer(4))));
    List<Message> changedAbove = new ArrayList<>();
    // what events delivered above the watermark, in the revision they delivered: a row a page moved past its
    // delivered revision (or kept alone) is left out, and recovery delivers its change
    db.query("SELECT m.json FROM rooms r JOIN messages m ON m.room_id = r.id AND m.delivered_rev > r.rev_watermark"
        + " AND m.delivered_rev = m.rev ORDER BY r.id, m.rev",
        row -> changedAbove.add(RowJson.message(RoomRange.text(row, 0), rows)));
    List<StoredSend> sends = new ArrayList<>();
    db.query("SELECT room_id, client_message_id, sender_id, parts, created_at, sequence, links FROM sends"
        + " ORDER BY sequence, client_message_id", row -> sends.add(RowJson.send(RoomRange.text(row, 0),
            RoomRange.text(row, 1), RoomRange.text(row, 2), RowJson.parts(RoomRange.text(row, 3)), row.integer(4),
            row.integer(5), row.text(6))));
    List<Receipt> pendingReads = new ArrayList<>();
    db.query("SELECT room_id, user_id, message_id, seq, read_at FROM pending_reads ORDER BY room_id",
        row -> pendingReads.add(Receipt.of(RoomRange.text(row, 0), RoomRange.text(row, 1), RoomRange.text(row, 2),
            row.integer(3), row.integer(4))));
    long[] writtenAt = {0};
    db.query("SELECT value FROM meta WHERE key = 'written_at'", row -> writtenAt[0] = parseLong(row.text(0)));
    return new StoredState(rooms, receipts, changedAbove, sends, writtenAt[0], pendingReads);
  }

  @Override
  public List<StoredRoom> rooms() throws StoreException {
    checkOpen();
    List<StoredRoom> rooms = new ArrayList<>();
    db.query("SELECT " + ROOM_COLUMNS + " FROM rooms ORDER BY activity_at DESC, id", row -> rooms.add(room(row)));
    return rooms;
  }

  @Override
  public @Nullable MessagePage messages(String roomId, MessageQuery query) throws StoreException {
    checkOpen();
    if (!query.wholeRoom()) return null; // ranges are kept for whole rooms: a thread's page is the service's
    long[] range = {0, -1};
    boolean[] found = {false};
    db.query("SELECT low_seq, seq_watermark FROM rooms WHERE id = ?", row -> {
      range[0] = row.integer(0);
      range[1] = row.integer(1);
      found[0] = true;
    }, roomId);
    long low = range[0];
    long watermark = range[1];
    if (!found[0] || watermark < 0) return null;
    long from;
    long to;
    boolean hasMore;
    int limit = query.limit();
    Long before = query.before();
    Long after = query.after();
    if (after != null) {
      if (after + limit > watermark) return null; // the store cannot know what lies past its watermark
      from = after + 1;
      to = after + limit;
      hasMore = true; // newer ones may exist on the service, past the watermark: the next page asks it
    } else {
      to = before != null ? before - 1 : watermark;
      if (to > watermark) return null;
      from = Math.max(1, to - limit + 1);
      hasMore = from > 1;
    }
    if (to < from) return new MessagePage(new ArrayList<Message>(), false, true); // nothing below seq 1
    if (from < low && low > 1) return null; // older than the oldest kept of the range
    List<Message> page = new ArrayList<>();
    db.query("SELECT json FROM messages WHERE room_id = ? AND seq >= ? AND seq <= ? ORDER BY seq",
        row -> page.add(RowJson.message(RoomRange.text(row, 0), rows)), roomId, from, to);
    if (page.size() != to - from + 1) return null; // a range that does not hold: let the service answer
    return new MessagePage(page, hasMore, true);
  }

  @Override
  public @Nullable RoomDigest digest(String roomId, String userId, long readSeq, int recent, int limit)
      throws StoreException {
    checkOpen();
    long[] range = {0, -1};
    boolean[] found = {false};
    db.query("SELECT low_seq, seq_watermark FROM rooms WHERE id = ?", row -> {
      range[0] = row.integer(0);
      range[1] = row.integer(1);
      found[0] = true;
    }, roomId);
    if (!found[0]) return null;
    long low = range[1] < 0 ? Long.MAX_VALUE : range[0] > 0 ? range[0] : range[1] + 1;
    // both queries read newest first (the LIMIT keeps the newest) and are reversed once: the digest is oldest first
    List<Message> newest = new ArrayList<>();
    Map<Long, Message> read = new HashMap<>(); // the newest are mostly unread too: each row is parsed once
    db.query("SELECT seq, json FROM messages WHERE room_id = ? AND deleted = 0 ORDER BY seq DESC LIMIT ?", row -> {
      Message m = RowJson.message(RoomRange.text(row, 1), rows);
      read.put(row.integer(0), m);
      newest.add(m);
    }, roomId, recent);
    List<Message> unread = new ArrayList<>();
    db.query("SELECT seq, json FROM messages WHERE room_id = ? AND seq > ? AND deleted = 0 AND sender_id <> ?"
        + " ORDER BY seq DESC LIMIT ?", row -> {
          Message m = read.get(row.integer(0));
          unread.add(m != null ? m : RowJson.message(RoomRange.text(row, 1), rows));
        }, roomId, readSeq, userId, limit);
    Collections.reverse(newest);
    Collections.reverse(unread);
    return new RoomDigest(low, newest, unread);
  }

  @Override
  public SearchPage search(SearchQuery query, String userId) throws StoreException {
    checkOpen();
    if (query == null) throw new NullPointerException("query == null");
    if (userId == null) throw new NullPointerException("userId == null");
    return SqlSearch.search(db, rows, query, userId);
  }

  @Override
  public void write(StoreWrite write) throws StoreException {
    checkOpen();
    db.begin();
    try {
      new WriteApplier(db, maxMessagesPerRoom, maxRooms).apply(write);
      db.commit();
    } catch (StoreException | RuntimeException e) {
      db.rollback();
      throw e;
    }
  }

  @Override
  public void clear() throws StoreException {
    checkOpen();
    db.begin();
    try {
      for (String table : new String[] {"messages", "receipts", "rooms", "sends", "meta", "pending_reads"}) {
        db.update("DELETE FROM " + table);
      }
      SqlSearch.cleared(db);
      db.commit();
    } catch (StoreException | RuntimeException e) {
      db.rollback();
      throw e;
    }
    // Deleted rows stay in SQLite's free pages and in the write-ahead log until overwritten: rebuilding the
    // file and emptying the log makes a logout leave no readable trace of the user's messages.
    db.update("VACUUM");
    db.query("PRAGMA wal_checkpoint(TRUNCATE)", row -> { });
  }

  @Override
  public void close() {
    if (closed) return;
    closed = true;
    db.close();
  }

  private void checkOpen() throws StoreException {
    if (closed) throw new StoreException(StoreException.Kind.IO, "the store is closed", null);
  }

  private static StoredRoom room(SqlDatabase.Row row) throws StoreException {
    try {
      Room room = Room.builder()
          .id(RoomRange.text(row, 0))
          .name(row.text(1))
          .memberIds(RowJson.strings(RoomRange.text(row, 2)))
          .createdAt(row.integer(3))
          .lastMessageSeq(row.integer(4))
          .lastMessageAt(row.isNull(5) ? null : row.integer(5))
          .rev(row.integer(6))
          .build();
      return new StoredRoom(room, row.integer(7), row.integer(8));
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new StoreException(StoreException.Kind.CORRUPT, "cannot read a stored room: " + e.getMessage(), e);
    }
  }

  private static long parseLong(@Nullable String text) throws StoreException {
    try {
      return text == null ? 0 : Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new StoreException(StoreException.Kind.CORRUPT, "cannot read the store's written_at", e);
    }
  }
}
