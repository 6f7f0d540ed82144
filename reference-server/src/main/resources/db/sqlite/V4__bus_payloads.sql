-- Servers sharing a database: an event too large for a PostgreSQL NOTIFY (8000 bytes) is stored here and
-- the notification carries its id; rows older than a minute are deleted by the node that stores the next one.
CREATE TABLE bus_payloads (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at BIGINT  NOT NULL,
    body       VARCHAR NOT NULL
);
CREATE INDEX bus_payloads_by_age ON bus_payloads (created_at);
