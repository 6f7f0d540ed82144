-- A room's calls are read by the cluster's per-room call catch-up; ended calls stay, so without this index each
-- catch-up would scan every call of every tenant.
CREATE INDEX calls_by_room ON calls (tenant_id, room_id);
