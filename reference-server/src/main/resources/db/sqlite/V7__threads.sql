-- Replies, threads and mentions (contract section 10). thread is a root's summary as JSON, null until its
-- first reply; mentions a JSON array of user ids.
ALTER TABLE messages ADD COLUMN reply_to_id VARCHAR(36);
ALTER TABLE messages ADD COLUMN thread_id VARCHAR(36);
ALTER TABLE messages ADD COLUMN mentions VARCHAR NOT NULL DEFAULT '[]';
ALTER TABLE messages ADD COLUMN thread VARCHAR;
CREATE INDEX messages_by_thread ON messages (tenant_id, room_id, thread_id, seq);
