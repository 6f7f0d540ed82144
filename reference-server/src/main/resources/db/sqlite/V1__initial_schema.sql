-- The reference server's state in a data directory (SQLite). db/migration/ holds the same schema for
-- PostgreSQL: each version here is that version there, with SQLite's types (BLOB for BYTEA, INTEGER PRIMARY
-- KEY AUTOINCREMENT for an identity column, whose values are never reused). Instants are epoch milliseconds
-- (BIGINT); JSON values are text.

CREATE TABLE tenants (
    id                VARCHAR(64)  NOT NULL PRIMARY KEY,
    api_key           VARCHAR(512) NOT NULL UNIQUE,
    jwt_secret        BLOB         NOT NULL,
    auto_create_users BOOLEAN      NOT NULL,
    calls_enabled     BOOLEAN      NOT NULL,
    webhook_url       VARCHAR,
    webhook_secret    VARCHAR
);

CREATE TABLE users (
    tenant_id  VARCHAR(64) NOT NULL REFERENCES tenants (id),
    user_id    VARCHAR     NOT NULL,
    username   VARCHAR,
    created_at BIGINT      NOT NULL,
    updated_at BIGINT      NOT NULL,
    PRIMARY KEY (tenant_id, user_id)
);

-- last_seq and rev are the room's counters: a send or a change locks the row and takes the next value in
-- the transaction that stores it.
CREATE TABLE rooms (
    tenant_id       VARCHAR(64) NOT NULL REFERENCES tenants (id),
    id              VARCHAR(36) NOT NULL,
    name            VARCHAR,
    created_at      BIGINT      NOT NULL,
    last_seq        BIGINT      NOT NULL DEFAULT 0,
    rev             BIGINT      NOT NULL DEFAULT 0,
    last_message_at BIGINT,
    PRIMARY KEY (tenant_id, id)
);

-- pos orders a room's members by when they were (last) added.
CREATE TABLE room_members (
    pos       INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id VARCHAR(64) NOT NULL,
    room_id   VARCHAR(36) NOT NULL,
    user_id   VARCHAR     NOT NULL,
    UNIQUE (tenant_id, room_id, user_id),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, id)
);
CREATE INDEX room_members_by_user ON room_members (tenant_id, user_id);

-- The idempotency key is (room, sender, clientMessageId); rev is the room revision of the latest change.
CREATE TABLE messages (
    tenant_id         VARCHAR(64) NOT NULL,
    room_id           VARCHAR(36) NOT NULL,
    seq               BIGINT      NOT NULL,
    id                VARCHAR(36) NOT NULL,
    rev               BIGINT      NOT NULL,
    sender_id         VARCHAR     NOT NULL,
    client_message_id VARCHAR     NOT NULL,
    parts             VARCHAR     NOT NULL,
    reactions         VARCHAR     NOT NULL,
    created_at        BIGINT      NOT NULL,
    edited_at         BIGINT,
    deleted_at        BIGINT,
    PRIMARY KEY (tenant_id, room_id, seq),
    UNIQUE (tenant_id, room_id, id),
    UNIQUE (tenant_id, room_id, rev),
    UNIQUE (tenant_id, room_id, sender_id, client_message_id),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, id)
);

CREATE TABLE receipts (
    tenant_id  VARCHAR(64) NOT NULL,
    room_id    VARCHAR(36) NOT NULL,
    user_id    VARCHAR     NOT NULL,
    message_id VARCHAR(36) NOT NULL,
    seq        BIGINT      NOT NULL,
    read_at    BIGINT      NOT NULL,
    PRIMARY KEY (tenant_id, room_id, user_id)
);

-- live_room_id is the room while the call rings or is active, else NULL: the unique key allows one live
-- call per room.
CREATE TABLE calls (
    tenant_id       VARCHAR(64) NOT NULL,
    id              VARCHAR(36) NOT NULL,
    room_id         VARCHAR(36) NOT NULL,
    kind            VARCHAR(16) NOT NULL,
    initiator_id    VARCHAR     NOT NULL,
    status          VARCHAR(16) NOT NULL,
    participant_ids VARCHAR     NOT NULL,
    declined_ids    VARCHAR     NOT NULL,
    created_at      BIGINT      NOT NULL,
    ended_at        BIGINT,
    end_reason      VARCHAR(16),
    live_room_id    VARCHAR(36),
    PRIMARY KEY (tenant_id, id),
    UNIQUE (tenant_id, live_room_id)
);

CREATE TABLE device_tokens (
    tenant_id VARCHAR(64) NOT NULL,
    token     VARCHAR     NOT NULL,
    platform  VARCHAR(8)  NOT NULL,
    user_id   VARCHAR     NOT NULL,
    PRIMARY KEY (tenant_id, token)
);
CREATE INDEX device_tokens_by_user ON device_tokens (tenant_id, user_id);

CREATE TABLE push_outbox (
    pos        INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id  VARCHAR(64) NOT NULL,
    id         VARCHAR(36) NOT NULL,
    user_id    VARCHAR     NOT NULL,
    token      VARCHAR     NOT NULL,
    platform   VARCHAR(8)  NOT NULL,
    room_id    VARCHAR(36) NOT NULL,
    message_id VARCHAR(36) NOT NULL,
    sender_id  VARCHAR     NOT NULL,
    title      VARCHAR     NOT NULL,
    body       VARCHAR     NOT NULL,
    created_at BIGINT      NOT NULL
);
CREATE INDEX push_outbox_by_tenant ON push_outbox (tenant_id, pos);
