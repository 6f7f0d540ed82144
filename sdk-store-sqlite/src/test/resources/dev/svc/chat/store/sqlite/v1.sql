-- The store's schema version 1, as the SDK wrote it: the fixture of the migration test (kept apart from the
-- code on purpose, so that a change to the code's idea of version 1 shows up as a failing migration).
CREATE TABLE meta (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms (id TEXT NOT NULL PRIMARY KEY, name TEXT, members TEXT NOT NULL DEFAULT '[]', created_at INTEGER NOT NULL DEFAULT 0, last_message_seq INTEGER NOT NULL DEFAULT 0, last_message_at INTEGER, rev INTEGER NOT NULL DEFAULT 0, seq_watermark INTEGER NOT NULL DEFAULT -1, rev_watermark INTEGER NOT NULL DEFAULT -1);
CREATE TABLE messages (id TEXT NOT NULL PRIMARY KEY, room_id TEXT NOT NULL, seq INTEGER NOT NULL, rev INTEGER NOT NULL, created_at INTEGER NOT NULL, deleted INTEGER NOT NULL, json TEXT NOT NULL);
CREATE UNIQUE INDEX messages_room_seq ON messages (room_id, seq);
CREATE TABLE receipts (room_id TEXT NOT NULL, user_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL, read_at INTEGER NOT NULL, PRIMARY KEY (room_id, user_id));
CREATE TABLE sends (client_message_id TEXT NOT NULL PRIMARY KEY, room_id TEXT NOT NULL, sender_id TEXT NOT NULL, parts TEXT NOT NULL, created_at INTEGER NOT NULL, sequence INTEGER NOT NULL);
CREATE INDEX sends_sequence ON sends (sequence);
PRAGMA user_version = 1;
