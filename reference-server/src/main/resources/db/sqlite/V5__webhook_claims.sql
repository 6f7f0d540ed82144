-- Servers sharing a database: a node claims a webhook for one attempt (claimed_by, until lease_until, in epoch
-- milliseconds), so that each attempt is made by one node; a delivery whose lease ran out (its node died) is
-- taken over by another node.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_by VARCHAR(36);
ALTER TABLE webhook_deliveries ADD COLUMN lease_until BIGINT DEFAULT 0 NOT NULL;
