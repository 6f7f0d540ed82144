package dev.svc.chat.store.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.svc.chat.store.StoreException;

/**
 * The store's schema, in {@code PRAGMA user_version}, and its forward migrations. A new database gets the
 * current schema at once; an older one runs each migration after its version, each in a transaction of its
 * own that also sets the version it reaches, so a migration interrupted by a crash is run again whole.
 *
 * <p>The SQL stays within what SQLite 3.9 (Android API 24) understands: no upsert, no window functions, no
 * {@code RENAME COLUMN}.
 *
 * <ul>
 *   <li>Version 1: meta, rooms with their watermarks, messages (one row per id, UNIQUE(room_id, seq)),
 *       receipts (one per room and user), sends.
 *   <li>Version 2: a room's {@code low_seq} (the oldest seq of the run of messages stored up to its seq
 *       watermark) and {@code activity_at} (for the room list's order and eviction), with their indexes, and
 *       an index on messages by room and rev (the changes above a room's revision watermark, read at start).
 *   <li>Version 3: a message's {@code sender_id}, so that the room list's unread messages (of other users) are
 *       read by the database, not by parsing every row.
 *   <li>Version 4: {@code pending_reads}, the user's reads the service has not confirmed (a {@code markRead}
 *       made offline), sent again after a restart.
 *   <li>Version 5: {@code sends} keyed by room and {@code client_message_id}, as the service's idempotency is
 *       (the same id in two rooms is two sends); a message's {@code delivered_rev}, the highest revision of it
 *       an event delivered (-1: none, a message kept from the service's answers only), which alone counts as
 *       delivered at the next start. Rows of an older database, which did not tell, are taken as delivered in
 *       their stored revision, as that database took them (else each message above its room's revision
 *       watermark, new messages included, would come again as an update).
 *   <li>Version 6: a send's {@code links} (its {@code replyToId}, {@code threadId} and {@code mentions}, contract
 *       section 10) as a JSON object, NULL for a plain send; a version 5 send reads as a plain one.
 *   <li>Version 7: the search index {@code message_search} (FTS5, else FTS4) and the trigger that deletes a
 *       message's index row with it ({@link SqlSearch}); the migration indexes every stored message.
 *   <li>Version 8: the message rows' rowids hold their {@code createdAt} ({@link MessageKeys}), so that the
 *       search index reads its matches newest first; the index holds the folded words as they are (not in hex);
 *       {@code message_search_gone} lists the message rows deleted in a transaction, whose index rows go at its
 *       end ({@link IndexWrites}). The migration gives the rows their keys (the step to 7 makes no index since
 *       version 8, and this one none since version 9).
 *   <li>Version 9: the index keeps no row sizes and merges with larger pages, fewer segments at a time
 *       ({@link SqlSearch#create}), for a cheaper write; the migration makes it again from the stored messages.
 * </ul>
 */
final class SqlSchema {
  /** The version this code writes. */
  static final int VERSION = 9;

  private static final List<String> TABLES = Arrays.asList("meta", "rooms", "messages", "receipts", "sends",
      "pending_reads", SqlSearch.TABLE, SqlSearch.GONE);
  /** The outbox since version 5: the columns of version 1, keyed by room and clientMessageId. */
  private static final String SENDS = "CREATE TABLE sends (client_message_id TEXT NOT NULL, room_id TEXT NOT NULL,"
      + " sender_id TEXT NOT NULL, parts TEXT NOT NULL, created_at INTEGER NOT NULL, sequence INTEGER NOT NULL,"
      + " PRIMARY KEY (room_id, client_message_id))";
  private static final String SENDS_SEQUENCE = "CREATE INDEX sends_sequence ON sends (sequence)";
  private static final String DELIVERED_REV =
      "ALTER TABLE messages ADD COLUMN delivered_rev INTEGER NOT NULL DEFAULT -1";
  /** A send's reply, thread and mentions (contract section 10) as a JSON object; NULL for a send with none. */
  private static final String SEND_LINKS = "ALTER TABLE sends ADD COLUMN links TEXT";
  private static final String PENDING_READS = "CREATE TABLE pending_reads (room_id TEXT NOT NULL PRIMARY KEY,"
      + " user_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL, read_at INTEGER NOT NULL)";

  /** The current schema, for a new database. Columns added by migrations come last, as ALTER TABLE puts them. */
  private static final String[] CREATE = {
      "CREATE TABLE meta (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL)",
      "CREATE TABLE rooms (id TEXT NOT NULL PRIMARY KEY, name TEXT, members TEXT NOT NULL DEFAULT '[]',"
          + " created_at INTEGER NOT NULL DEFAULT 0, last_message_seq INTEGER NOT NULL DEFAULT 0,"
          + " last_message_at INTEGER, rev INTEGER NOT NULL DEFAULT 0,"
          + " seq_watermark INTEGER NOT NULL DEFAULT -1, rev_watermark INTEGER NOT NULL DEFAULT -1,"
          + " low_seq INTEGER NOT NULL DEFAULT 0, activity_at INTEGER NOT NULL DEFAULT 0)",
      "CREATE TABLE messages (id TEXT NOT NULL PRIMARY KEY, room_id TEXT NOT NULL, seq INTEGER NOT NULL,"
          + " rev INTEGER NOT NULL, created_at INTEGER NOT NULL, deleted INTEGER NOT NULL, json TEXT NOT NULL)",
      "CREATE UNIQUE INDEX messages_room_seq ON messages (room_id, seq)",
      "CREATE TABLE receipts (room_id TEXT NOT NULL, user_id TEXT NOT NULL, message_id TEXT NOT NULL,"
          + " seq INTEGER NOT NULL, read_at INTEGER NOT NULL, PRIMARY KEY (room_id, user_id))",
      SENDS,
      SENDS_SEQUENCE,
      "CREATE INDEX rooms_activity ON rooms (activity_at)",
      "CREATE INDEX messages_room_rev ON messages (room_id, rev)",
      "ALTER TABLE messages ADD COLUMN sender_id TEXT NOT NULL DEFAULT ''",
      PENDING_READS,
      DELIVERED_REV,
      SEND_LINKS,
  };

  private SqlSchema() {
  }

  /**
   * Brings {@code db} to the current schema: creates it, migrates it, or refuses it.
   *
   * @throws StoreException NEWER_SCHEMA for a version above {@link #VERSION}; CORRUPT for a database that is
   *     not a store's (a version of 0 with tables, a negative version, a table missing)
   */
  static void open(SqlDatabase db) throws StoreException {
    int version = db.schemaVersion(); // reads the file's header: a file that is no database fails here
    if (version > VERSION) {
      throw new StoreException(StoreException.Kind.NEWER_SCHEMA,
          "the store's schema version " + version + " is newer than this SDK's " + VERSION, null);
    }
    if (version < 0) throw corrupt("a negative schema version " + version);
    if (version == 0) {
      if (!tables(db).isEmpty()) throw corrupt("a database with tables but no schema version");
      inTransaction(db, VERSION, d -> {
        for (String sql : CREATE) d.update(sql);
        SqlSearch.create(d);
      });
    }
    for (int v = version == 0 ? VERSION : version; v < VERSION; v++) {
      inTransaction(db, v + 1, migrationTo(v + 1));
    }
    Set<String> tables = tables(db);
    for (String t : TABLES) {
      if (!tables.contains(t)) throw corrupt("the table " + t + " is missing");
    }
  }

  /** Returns the migration from {@code version - 1} to {@code version}. */
  private static Step migrationTo(int version) {
    switch (version) {
      case 2:
        return SqlSchema::migrateTo2;
      case 3:
        return SqlSchema::migrateTo3;
      case 4:
        return d -> d.update(PENDING_READS);
      case 5:
        return SqlSchema::migrateTo5;
      case 6:
        return d -> d.update(SEND_LINKS);
      case 7:
        return d -> { }; // version 7's index is replaced by version 8's, which is made from the rows
      case 8:
        return SqlSearch::rekey; // version 8's index is replaced by version 9's, which is made from the rows
      case 9:
        return SqlSearch::reindex;
      default:
        throw new AssertionError("no migration to " + version);
    }
  }

  /** Version 1 to 2: adds and fills low_seq and activity_at, and the indexes of version 2. */
  private static void migrateTo2(SqlDatabase db) throws StoreException {
    db.update("ALTER TABLE rooms ADD COLUMN low_seq INTEGER NOT NULL DEFAULT 0");
    db.update("ALTER TABLE rooms ADD COLUMN activity_at INTEGER NOT NULL DEFAULT 0");
    db.update("CREATE INDEX rooms_activity ON rooms (activity_at)");
    db.update("CREATE INDEX messages_room_rev ON messages (room_id, rev)");
    db.update("UPDATE rooms SET activity_at = max(created_at, coalesce(last_message_at, 0),"
        + " coalesce((SELECT max(created_at) FROM messages WHERE room_id = rooms.id), 0))");
    // Version 1 kept no range: the run of stored messages below each room's watermark is found from the rows.
    List<String> ids = new ArrayList<>();
    List<Long> watermarks = new ArrayList<>();
    db.query("SELECT id, seq_watermark FROM rooms WHERE seq_watermark >= 0", row -> {
      ids.add(RoomRange.text(row, 0));
      watermarks.add(row.integer(1));
    });
    for (int i = 0; i < ids.size(); i++) {
      long low = RoomRange.extendDown(db, ids.get(i), watermarks.get(i) + 1);
      db.update("UPDATE rooms SET low_seq = ? WHERE id = ?", low, ids.get(i));
    }
  }

  /** Version 2 to 3: adds messages.sender_id (the room list's unread rule) and fills it from each row's JSON. */
  private static void migrateTo3(SqlDatabase db) throws StoreException {
    db.update("ALTER TABLE messages ADD COLUMN sender_id TEXT NOT NULL DEFAULT ''");
    List<String> ids = new ArrayList<>();
    List<String> senders = new ArrayList<>();
    db.query("SELECT id, json FROM messages", row -> {
      ids.add(RoomRange.text(row, 0));
      senders.add(RowJson.message(RoomRange.text(row, 1)).senderId());
    });
    for (int i = 0; i < ids.size(); i++) {
      db.update("UPDATE messages SET sender_id = ? WHERE id = ?", senders.get(i), ids.get(i));
    }
  }

  /**
   * Version 4 to 5: the outbox keyed by room and clientMessageId, and messages.delivered_rev. SQLite cannot change
   * a table's key: the rows move to a new table, which takes the old one's name (the index goes with the old table
   * and is made again).
   */
  private static void migrateTo5(SqlDatabase db) throws StoreException {
    db.update("ALTER TABLE sends RENAME TO sends_v4");
    db.update("DROP INDEX IF EXISTS sends_sequence");
    db.update(SENDS);
    db.update("INSERT INTO sends (client_message_id, room_id, sender_id, parts, created_at, sequence)"
        + " SELECT client_message_id, room_id, sender_id, parts, created_at, sequence FROM sends_v4");
    db.update("DROP TABLE sends_v4");
    db.update(SENDS_SEQUENCE);
    db.update(DELIVERED_REV);
    db.update("UPDATE messages SET delivered_rev = rev");
  }

  private static void inTransaction(SqlDatabase db, int version, Step step) throws StoreException {
    db.begin();
    try {
      step.run(db);
      db.setSchemaVersion(version);
      db.commit();
    } catch (StoreException | RuntimeException e) {
      db.rollback();
      throw e;
    }
  }

  private static Set<String> tables(SqlDatabase db) throws StoreException {
    Set<String> tables = new HashSet<>();
    db.query("SELECT name FROM sqlite_master WHERE type = 'table'", row -> tables.add(RoomRange.text(row, 0)));
    return tables;
  }

  private static StoreException corrupt(String why) {
    return new StoreException(StoreException.Kind.CORRUPT, "not a usable store: " + why, null);
  }

  private interface Step {
    void run(SqlDatabase db) throws StoreException;
  }
}
