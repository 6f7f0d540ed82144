package dev.svc.chat.reference.store;

import static dev.svc.chat.reference.store.SqlValues.bind;
import static dev.svc.chat.reference.store.SqlValues.instant;
import static dev.svc.chat.reference.store.SqlValues.json;

import dev.svc.chat.reference.model.Call;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Calls in SQL; every method runs inside the caller's transaction. A live call holds its room in
 * {@code live_room_id}, whose unique key refuses a second live call in the room.
 */
final class JdbcCalls {

    private final SqlDialect dialect;

    private static final String COLUMNS = "id, room_id, kind, initiator_id, status, participant_ids, declined_ids,"
            + " created_at, ended_at, end_reason, version";

    JdbcCalls(SqlDialect dialect) {
        this.dialect = dialect;
    }

    void insert(Connection c, String tenantId, CallState state) throws SQLException {
        Call call = state.call();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO calls (tenant_id, id, room_id, kind,"
                + " initiator_id, status, participant_ids, declined_ids, created_at, ended_at, end_reason,"
                + " live_room_id, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            bind(ps, tenantId, call.id(), call.roomId(), call.kind(), call.initiatorId(), call.status(),
                    json(call.participantIds()), json(state.declinedIds()), call.createdAt(), call.endedAt(),
                    call.endReason(), call.isLive() ? call.roomId() : null, state.version()).executeUpdate();
        }
    }

    void update(Connection c, String tenantId, CallState state) throws SQLException {
        Call call = state.call();
        try (PreparedStatement ps = c.prepareStatement("UPDATE calls SET status = ?, participant_ids = ?,"
                + " declined_ids = ?, ended_at = ?, end_reason = ?, live_room_id = ?, version = ?"
                + " WHERE tenant_id = ? AND id = ?")) {
            int n = bind(ps, call.status(), json(call.participantIds()), json(state.declinedIds()), call.endedAt(),
                    call.endReason(), call.isLive() ? call.roomId() : null, state.version(), tenantId, call.id())
                    .executeUpdate();
            if (n != 1) {
                throw new NoSuchElementException("no call " + call.id());
            }
        }
    }

    Optional<CallState> byId(Connection c, String tenantId, String callId) throws SQLException {
        return one(c, "id = ?", tenantId, callId);
    }

    /** Returns the call with its row locked until the transaction ends. */
    Optional<CallState> lock(Connection c, String tenantId, String callId) throws SQLException {
        return one(c, "id = ?" + dialect.forUpdate(), tenantId, callId);
    }

    Optional<CallState> liveIn(Connection c, String tenantId, String roomId) throws SQLException {
        return one(c, "live_room_id = ?", tenantId, roomId);
    }

    private static Optional<CallState> one(Connection c, String where, String tenantId, String value)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM calls WHERE tenant_id = ? AND "
                + where)) {
            try (ResultSet rs = bind(ps, tenantId, value).executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Call call = new Call(rs.getString("id"), rs.getString("room_id"), rs.getString("kind"),
                        rs.getString("initiator_id"), rs.getString("status"),
                        SqlValues.strings(rs.getString("participant_ids")), instant(rs, "created_at"),
                        instant(rs, "ended_at"), rs.getString("end_reason"));
                return Optional.of(new CallState(call, new HashSet<>(SqlValues.strings(rs.getString("declined_ids"))),
                        rs.getLong("version")));
            }
        }
    }
}
