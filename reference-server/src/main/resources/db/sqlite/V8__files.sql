-- Files and uploads (contract section 9). A tenant's upload limit; an upload's record (offset is what is
-- committed: the bytes of a PATCH are in file_chunks in the same transaction that moves it); the file's bytes
-- in chunks so that every node of a cluster serves every file; the messages that reference a file (checked
-- against the message when read, so an edit or a delete needs no bookkeeping here); and cached thumbnails.
ALTER TABLE tenants ADD COLUMN max_file_bytes BIGINT NOT NULL DEFAULT 104857600;

CREATE TABLE files (
    id             VARCHAR(36)  NOT NULL PRIMARY KEY,
    tenant_id      VARCHAR(64)  NOT NULL,
    uploader_id    VARCHAR      NOT NULL,
    length         BIGINT       NOT NULL,
    upload_offset  BIGINT       NOT NULL,
    name           VARCHAR      NOT NULL,
    declared_type  VARCHAR      NOT NULL,
    content_type   VARCHAR,
    created_at     BIGINT       NOT NULL,
    touched_at     BIGINT       NOT NULL,
    completed_at   BIGINT,
    sha256         VARCHAR(64),
    width          INTEGER,
    height         INTEGER
);
CREATE INDEX files_by_touch ON files (touched_at);

CREATE TABLE file_chunks (
    file_id      VARCHAR(36) NOT NULL,
    start_offset BIGINT      NOT NULL,
    data         BLOB        NOT NULL,
    PRIMARY KEY (file_id, start_offset)
);

CREATE TABLE file_refs (
    file_id    VARCHAR(36) NOT NULL,
    room_id    VARCHAR(36) NOT NULL,
    message_id VARCHAR(36) NOT NULL,
    PRIMARY KEY (file_id, room_id, message_id)
);

CREATE TABLE file_thumbnails (
    file_id      VARCHAR(36) NOT NULL,
    size         INTEGER     NOT NULL,
    content_type VARCHAR     NOT NULL,
    data         BLOB        NOT NULL,
    PRIMARY KEY (file_id, size)
);
