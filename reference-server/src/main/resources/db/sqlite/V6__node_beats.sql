-- Servers sharing a database: each beat also counts up, so that a node that saw another's list can tell when a
-- beat begun after it started listening has written that list (then it reads the list again).
ALTER TABLE nodes ADD COLUMN beats BIGINT DEFAULT 0 NOT NULL;
