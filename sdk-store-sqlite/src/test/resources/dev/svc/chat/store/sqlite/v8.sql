-- The store's schema version 8, as the SDK wrote it for a new database: its search index is an FTS5 table of
-- the folded words as they are, with row sizes and FTS5's default merging, rowids holding createdAt, and the
-- list of deleted rows (its trigger is made by the test, as its body holds a semicolon). The fixture of the
-- migration to version 9.
CREATE TABLE meta (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms (id TEXT NOT NULL PRIMARY KEY, name TEXT, members TEXT NOT NULL DEFAULT '[]', created_at INTEGER NOT NULL DEFAULT 0, last_message_seq INTEGER NOT NULL DEFAULT 0, last_message_at INTEGER, rev INTEGER NOT NULL DEFAULT 0, seq_watermark INTEGER NOT NULL DEFAULT -1, rev_watermark INTEGER NOT NULL DEFAULT -1, low_seq INTEGER NOT NULL DEFAULT 0, activity_at INTEGER NOT NULL DEFAULT 0);
CREATE TABLE messages (id TEXT NOT NULL PRIMARY KEY, room_id TEXT NOT NULL, seq INTEGER NOT NULL, rev INTEGER NOT NULL, created_at INTEGER NOT NULL, deleted INTEGER NOT NULL, json TEXT NOT NULL);
CREATE UNIQUE INDEX messages_room_seq ON messages (room_id, seq);
CREATE TABLE receipts (room_id TEXT NOT NULL, user_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL, read_at INTEGER NOT NULL, PRIMARY KEY (room_id, user_id));
CREATE TABLE sends (client_message_id TEXT NOT NULL, room_id TEXT NOT NULL, sender_id TEXT NOT NULL, parts TEXT NOT NULL, created_at INTEGER NOT NULL, sequence INTEGER NOT NULL, PRIMARY KEY (room_id, client_message_id));
CREATE INDEX sends_sequence ON sends (sequence);
CREATE INDEX rooms_activity ON rooms (activity_at);
CREATE INDEX messages_room_rev ON messages (room_id, rev);
ALTER TABLE messages ADD COLUMN sender_id TEXT NOT NULL DEFAULT '';
CREATE TABLE pending_reads (room_id TEXT NOT NULL PRIMARY KEY, user_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL, read_at INTEGER NOT NULL);
ALTER TABLE messages ADD COLUMN delivered_rev INTEGER NOT NULL DEFAULT -1;
ALTER TABLE sends ADD COLUMN links TEXT;
CREATE VIRTUAL TABLE message_search USING fts5(words, tokenize='ascii');
CREATE TABLE message_search_gone (rowid INTEGER PRIMARY KEY);
PRAGMA user_version = 8;
