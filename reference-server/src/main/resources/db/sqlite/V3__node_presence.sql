-- Servers sharing a database: each beats in nodes every second and lists the users online on it in
-- node_presence; a node whose beat is older than a few seconds is dead, and its users stop counting.
CREATE TABLE nodes (
    node_id VARCHAR(36) NOT NULL PRIMARY KEY,
    seen_at BIGINT      NOT NULL
);

CREATE TABLE node_presence (
    node_id   VARCHAR(36) NOT NULL,
    tenant_id VARCHAR(64) NOT NULL,
    user_id   VARCHAR     NOT NULL,
    PRIMARY KEY (node_id, tenant_id, user_id)
);
