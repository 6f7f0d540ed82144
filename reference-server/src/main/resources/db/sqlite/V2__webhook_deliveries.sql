-- Webhooks not yet delivered, kept across restarts until a 2xx answer or the last attempt.
CREATE TABLE webhook_deliveries (
    id        VARCHAR(64) NOT NULL PRIMARY KEY,
    tenant_id VARCHAR(64) NOT NULL,
    type      VARCHAR(32) NOT NULL,
    url       VARCHAR     NOT NULL,
    body      VARCHAR     NOT NULL,
    attempt   INTEGER     NOT NULL,
    due_at    BIGINT      NOT NULL
);
CREATE INDEX webhook_deliveries_by_due ON webhook_deliveries (due_at);
