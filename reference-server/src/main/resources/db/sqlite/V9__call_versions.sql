-- Each stored change of a call takes the call's next version (1 when it starts ringing), and its events carry
-- it: a node of a cluster compares the version it handed its sockets with this one to catch up the call events
-- its event bus lost.
ALTER TABLE calls ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
