package dev.svc.chat.reference.store;

import static dev.svc.chat.reference.store.SqlValues.bind;
import static dev.svc.chat.reference.store.SqlValues.instant;

import dev.svc.chat.reference.model.DeviceToken;
import dev.svc.chat.reference.model.PushRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Device tokens and the push outbox in SQL; every method runs inside the caller's transaction. */
final class JdbcPush {

    void putDevice(Connection c, String tenantId, DeviceToken device) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM device_tokens WHERE tenant_id = ? AND token = ?")) {
            bind(delete, tenantId, device.token()).executeUpdate();
        }
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO device_tokens (tenant_id, token, platform, user_id) VALUES (?, ?, ?, ?)")) {
            bind(insert, tenantId, device.token(), device.platform(), device.userId()).executeUpdate();
        }
    }

    boolean removeDevice(Connection c, String tenantId, String userId, String token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM device_tokens WHERE tenant_id = ? AND token = ? AND user_id = ?")) {
            return bind(ps, tenantId, token, userId).executeUpdate() == 1;
        }
    }

    List<DeviceToken> devices(Connection c, String tenantId, Collection<String> userIds) throws SQLException {
        List<DeviceToken> out = new ArrayList<>();
        String marks = String.join(", ", java.util.Collections.nCopies(userIds.size(), "?"));
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT token, platform, user_id FROM device_tokens WHERE tenant_id = ? AND user_id IN (" + marks + ")")) {
            Object[] values = new Object[userIds.size() + 1];
            values[0] = tenantId;
            int i = 1;
            for (String userId : userIds) {
                values[i++] = userId;
            }
            try (ResultSet rs = bind(ps, values).executeQuery()) {
                while (rs.next()) {
                    out.add(new DeviceToken(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    void append(Connection c, String tenantId, List<PushRecord> records, int keep) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO push_outbox (tenant_id, id, user_id, token,"
                + " platform, room_id, message_id, sender_id, title, body, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (PushRecord r : records) {
                bind(ps, tenantId, r.id(), r.userId(), r.token(), r.platform(), r.roomId(), r.messageId(),
                        r.senderId(), r.title(), r.body(), r.createdAt()).executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM push_outbox WHERE tenant_id = ? AND pos <"
                + " (SELECT MIN(pos) FROM (SELECT pos FROM push_outbox WHERE tenant_id = ? ORDER BY pos DESC LIMIT ?) kept)")) {
            bind(ps, tenantId, tenantId, keep).executeUpdate();
        }
    }

    List<PushRecord> list(Connection c, String tenantId, String userId) throws SQLException {
        List<PushRecord> out = new ArrayList<>();
        String sql = "SELECT id, user_id, token, platform, room_id, message_id, sender_id, title, body, created_at"
                + " FROM push_outbox WHERE tenant_id = ?" + (userId != null ? " AND user_id = ?" : "") + " ORDER BY pos";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            Object[] values = userId != null ? new Object[] {tenantId, userId} : new Object[] {tenantId};
            try (ResultSet rs = bind(ps, values).executeQuery()) {
                while (rs.next()) {
                    out.add(new PushRecord(rs.getString("id"), rs.getString("user_id"), rs.getString("token"),
                            rs.getString("platform"), rs.getString("room_id"), rs.getString("message_id"),
                            rs.getString("sender_id"), rs.getString("title"), rs.getString("body"),
                            instant(rs, "created_at")));
                }
            }
        }
        return out;
    }

    void clear(Connection c, String tenantId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM push_outbox WHERE tenant_id = ?")) {
            bind(ps, tenantId).executeUpdate();
        }
    }
}
