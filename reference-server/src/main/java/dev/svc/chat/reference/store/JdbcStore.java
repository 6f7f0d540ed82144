package dev.svc.chat.reference.store;

import static dev.svc.chat.reference.store.SqlValues.bind;
import static dev.svc.chat.reference.store.SqlValues.instant;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.DeviceToken;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import dev.svc.chat.reference.model.PushRecord;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.RoomPosition;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.model.User;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A {@link Store} in a SQL database (SQLite or PostgreSQL, see {@link Database}): each method is one transaction,
 * so what a method returned is committed. Tenants, users and settings are here; rooms, messages, calls and
 * push state are in {@link JdbcRooms}, {@link JdbcMessages}, {@link JdbcCalls} and {@link JdbcPush}.
 */
public final class JdbcStore implements Store {

    private final Database db;
    private final MessageWrites writes;
    private final JdbcRooms rooms;
    private final JdbcMessages messages;
    private final JdbcCalls calls;
    private final JdbcPush push = new JdbcPush();

    /** Creates a store over a migrated database; {@link #close()} closes it. */
    public JdbcStore(Database db) {
        this(db, MessageWrites.NONE);
    }

    /** Creates a store over a migrated database that tells {@code writes} of every message it committed. */
    public JdbcStore(Database db, MessageWrites writes) {
        this.db = db;
        this.writes = writes;
        this.rooms = new JdbcRooms(db.dialect());
        this.messages = new JdbcMessages(rooms);
        this.calls = new JdbcCalls(db.dialect());
    }

    @Override
    public void createTenant(TenantRecord tenant, TenantSettings settings) {
        db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tenants (id, api_key, jwt_secret,"
                    + " auto_create_users, calls_enabled, webhook_url, webhook_secret, max_file_bytes)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, tenant.id());
                ps.setString(2, tenant.apiKey());
                ps.setBytes(3, tenant.jwtSecret());
                ps.setBoolean(4, settings.autoCreateUsers());
                ps.setBoolean(5, settings.callsEnabled());
                ps.setString(6, settings.webhookUrl());
                ps.setString(7, settings.webhookSecret());
                ps.setLong(8, settings.maxFileBytes());
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void updateApiKey(String tenantId, String apiKey) {
        db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE tenants SET api_key = ? WHERE id = ?")) {
                if (bind(ps, apiKey, tenantId).executeUpdate() != 1) {
                    throw new NoSuchElementException("no tenant " + tenantId);
                }
            }
            return null;
        });
    }

    @Override
    public Optional<TenantRecord> tenantByApiKey(String apiKey) {
        return db.tx(c -> tenant(c, "api_key = ?", apiKey));
    }

    @Override
    public Optional<TenantRecord> tenant(String tenantId) {
        return db.tx(c -> tenant(c, "id = ?", tenantId));
    }

    private static Optional<TenantRecord> tenant(Connection c, String where, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, api_key, jwt_secret FROM tenants WHERE " + where)) {
            try (ResultSet rs = bind(ps, value).executeQuery()) {
                return rs.next() ? Optional.of(new TenantRecord(rs.getString(1), rs.getString(2), rs.getBytes(3)))
                        : Optional.empty();
            }
        }
    }

    @Override
    public TenantSettings settings(String tenantId) {
        return db.tx(c -> settings(c, tenantId, false));
    }

    @Override
    public TenantSettings updateSettings(String tenantId, UnaryOperator<TenantSettings> change) {
        return db.tx(c -> {
            TenantSettings next = change.apply(settings(c, tenantId, true));
            try (PreparedStatement ps = c.prepareStatement("UPDATE tenants SET auto_create_users = ?,"
                    + " calls_enabled = ?, webhook_url = ?, webhook_secret = ?, max_file_bytes = ? WHERE id = ?")) {
                bind(ps, next.autoCreateUsers(), next.callsEnabled(), next.webhookUrl(), next.webhookSecret(),
                        next.maxFileBytes(), tenantId).executeUpdate();
            }
            return next;
        });
    }

    private TenantSettings settings(Connection c, String tenantId, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT auto_create_users, calls_enabled, webhook_url,"
                + " webhook_secret, max_file_bytes FROM tenants WHERE id = ?" + (lock ? db.dialect().forUpdate() : ""))) {
            try (ResultSet rs = bind(ps, tenantId).executeQuery()) {
                if (!rs.next()) {
                    throw new NoSuchElementException("no tenant " + tenantId);
                }
                return new TenantSettings(rs.getBoolean(1), rs.getBoolean(2), rs.getString(3), rs.getString(4),
                        rs.getLong(5));
            }
        }
    }

    @Override
    public User upsertUser(String tenantId, String userId, String username, Instant now) {
        return db.tx(c -> {
            if (insertUser(c, tenantId, userId, username, now)) {
                return new User(userId, username, now, now);
            }
            User old = user(c, tenantId, userId, true).orElseThrow();
            if (username == null || username.equals(old.username())) {
                return old;
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE users SET username = ?, updated_at = ? WHERE tenant_id = ? AND user_id = ?")) {
                bind(ps, username, now, tenantId, userId).executeUpdate();
            }
            return new User(userId, username, old.createdAt(), now);
        });
    }

    @Override
    public User ensureUser(String tenantId, String userId, Instant now) {
        return db.tx(c -> insertUser(c, tenantId, userId, null, now)
                ? new User(userId, null, now, now) : user(c, tenantId, userId, false).orElseThrow());
    }

    private static boolean insertUser(Connection c, String tenantId, String userId, String username, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO users (tenant_id, user_id, username, created_at,"
                + " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            return bind(ps, tenantId, userId, username, now, now).executeUpdate() == 1;
        }
    }

    @Override
    public Optional<User> user(String tenantId, String userId) {
        return db.tx(c -> user(c, tenantId, userId, false));
    }

    private Optional<User> user(Connection c, String tenantId, String userId, boolean lock)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT user_id, username, created_at, updated_at FROM users"
                + " WHERE tenant_id = ? AND user_id = ?" + (lock ? db.dialect().forUpdate() : ""))) {
            try (ResultSet rs = bind(ps, tenantId, userId).executeQuery()) {
                return rs.next() ? Optional.of(new User(rs.getString(1), rs.getString(2), instant(rs, "created_at"),
                        instant(rs, "updated_at"))) : Optional.empty();
            }
        }
    }

    @Override
    public Room createRoom(String tenantId, String name, Collection<String> memberIds, Instant now) {
        return db.tx(c -> rooms.create(c, tenantId, name, memberIds, now));
    }

    @Override
    public List<User> users(String tenantId) {
        return db.tx(c -> {
            List<User> users = new java.util.ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT user_id, username, created_at, updated_at"
                    + " FROM users WHERE tenant_id = ? ORDER BY user_id")) {
                try (ResultSet rs = bind(ps, tenantId).executeQuery()) {
                    while (rs.next()) {
                        users.add(new User(rs.getString(1), rs.getString(2), instant(rs, "created_at"),
                                instant(rs, "updated_at")));
                    }
                }
            }
            return users;
        });
    }

    @Override
    public List<Room> rooms(String tenantId) {
        return db.tx(c -> rooms.all(c, tenantId));
    }

    @Override
    public Room importRoom(String tenantId, String roomId, String name, Collection<String> memberIds,
                           Instant createdAt) {
        return db.tx(c -> rooms.importRoom(c, tenantId, roomId, name, memberIds, createdAt));
    }

    @Override
    public Optional<Room> room(String tenantId, String roomId) {
        return db.tx(c -> rooms.room(c, tenantId, roomId, false));
    }

    @Override
    public Optional<Room> addMembers(String tenantId, String roomId, Collection<String> userIds) {
        return db.tx(c -> {
            if (rooms.room(c, tenantId, roomId, true).isEmpty()) {
                return Optional.empty();
            }
            rooms.addMembers(c, tenantId, roomId, userIds);
            return rooms.room(c, tenantId, roomId, false);
        });
    }

    @Override
    public Optional<Room> removeMember(String tenantId, String roomId, String userId) {
        return db.tx(c -> {
            if (rooms.room(c, tenantId, roomId, true).isEmpty()) {
                return Optional.empty();
            }
            rooms.removeMember(c, tenantId, roomId, userId);
            return rooms.room(c, tenantId, roomId, false);
        });
    }

    @Override
    public List<Room> roomsOf(String tenantId, String userId) {
        return db.tx(c -> rooms.roomsOf(c, tenantId, userId));
    }

    @Override
    public List<RoomPosition> positionsOf(String tenantId, String userId) {
        return db.tx(c -> rooms.positionsOf(c, tenantId, userId));
    }

    @Override
    public Optional<Message> messageByClientId(String tenantId, String roomId, String senderId,
                                               String clientMessageId) {
        return db.tx(c -> {
            requireRoom(c, tenantId, roomId);
            return messages.byClientId(c, tenantId, roomId, senderId, clientMessageId);
        });
    }

    @Override
    public AppendResult appendMessage(String tenantId, String roomId, String senderId, String clientMessageId,
                                      List<JsonNode> parts, MessageLinks links, Instant now) {
        AppendResult result = db.tx(c -> messages.append(c, tenantId, roomId, senderId, clientMessageId, parts, links,
                now));
        if (result.created()) {
            writes.written(tenantId, result.message());
        }
        return result;
    }

    @Override
    public MessagePage messages(String tenantId, String roomId, PageRequest page) {
        return db.tx(c -> {
            requireRoom(c, tenantId, roomId);
            return messages.page(c, tenantId, roomId, page);
        });
    }

    @Override
    public MessagePage messages(String tenantId, String roomId, PageRequest page, String threadId) {
        return db.tx(c -> {
            requireRoom(c, tenantId, roomId);
            return messages.threadPage(c, tenantId, roomId, page, threadId);
        });
    }

    @Override
    public Optional<Message> message(String tenantId, String roomId, String messageId) {
        return db.tx(c -> {
            requireRoom(c, tenantId, roomId);
            return messages.byId(c, tenantId, roomId, messageId);
        });
    }

    @Override
    public Message replaceMessage(String tenantId, Message updated) {
        return changeMessage(tenantId, updated).message();
    }

    @Override
    public ChangeResult changeMessage(String tenantId, Message updated) {
        ChangeResult result = db.tx(c -> messages.change(c, tenantId, updated));
        writes.written(tenantId, result.message());
        return result;
    }

    @Override
    public ChangesPage changes(String tenantId, String roomId, long since, int limit) {
        return db.tx(c -> messages.changes(c, tenantId, roomId, since, limit));
    }

    @Override
    public Optional<Receipt> receipt(String tenantId, String roomId, String userId) {
        return db.tx(c -> {
            requireRoom(c, tenantId, roomId);
            return messages.receipt(c, tenantId, roomId, userId);
        });
    }

    @Override
    public void putReceipt(String tenantId, Receipt receipt) {
        db.tx(c -> {
            requireRoom(c, tenantId, receipt.roomId());
            messages.putReceipt(c, tenantId, receipt);
            return null;
        });
    }

    @Override
    public List<Receipt> receipts(String tenantId, String roomId) {
        return db.tx(c -> {
            requireRoom(c, tenantId, roomId);
            return messages.receipts(c, tenantId, roomId);
        });
    }

    @Override
    public void putDeviceToken(String tenantId, DeviceToken device) {
        db.tx(c -> {
            push.putDevice(c, tenantId, device);
            return null;
        });
    }

    @Override
    public boolean removeDeviceToken(String tenantId, String userId, String token) {
        return db.tx(c -> push.removeDevice(c, tenantId, userId, token));
    }

    @Override
    public List<DeviceToken> deviceTokens(String tenantId, Collection<String> userIds) {
        return userIds.isEmpty() ? List.of() : db.tx(c -> push.devices(c, tenantId, userIds));
    }

    @Override
    public void appendPushes(String tenantId, List<PushRecord> records, int keep) {
        db.tx(c -> {
            push.append(c, tenantId, records, keep);
            return null;
        });
    }

    @Override
    public List<PushRecord> pushes(String tenantId, String userId) {
        return db.tx(c -> push.list(c, tenantId, userId));
    }

    @Override
    public void clearPushes(String tenantId) {
        db.tx(c -> {
            push.clear(c, tenantId);
            return null;
        });
    }

    @Override
    public boolean insertCall(String tenantId, CallState call) {
        try {
            db.tx(c -> {
                calls.insert(c, tenantId, call);
                return null;
            });
            return true;
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof SQLException sql && db.dialect().uniqueViolation(sql)) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public boolean replaceCall(String tenantId, CallState expected, CallState call) {
        return db.tx(c -> {
            if (!calls.lock(c, tenantId, call.call().id()).equals(Optional.of(expected))) {
                return false;
            }
            calls.update(c, tenantId, call);
            return true;
        });
    }

    @Override
    public Optional<CallState> call(String tenantId, String callId) {
        return db.tx(c -> calls.byId(c, tenantId, callId));
    }

    @Override
    public Optional<CallState> liveCall(String tenantId, String roomId) {
        return db.tx(c -> calls.liveIn(c, tenantId, roomId));
    }

    @Override
    public void putWebhook(PendingWebhook d) {
        db.tx(c -> {
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE webhook_deliveries SET attempt = ?, due_at = ? WHERE id = ?")) {
                if (bind(update, d.attempt(), d.dueAt(), d.id()).executeUpdate() == 1) {
                    return null;
                }
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO webhook_deliveries (id, tenant_id, type,"
                    + " url, body, attempt, due_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                bind(insert, d.id(), d.tenantId(), d.type(), d.url(), d.body(), d.attempt(), d.dueAt()).executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void removeWebhook(String id) {
        db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM webhook_deliveries WHERE id = ?")) {
                bind(ps, id).executeUpdate();
            }
            return null;
        });
    }

    @Override
    public List<PendingWebhook> pendingWebhooks() {
        return db.tx(c -> {
            List<PendingWebhook> out = new java.util.ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, tenant_id, type, url, body, attempt, due_at"
                    + " FROM webhook_deliveries ORDER BY due_at")) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new PendingWebhook(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getString(5), rs.getInt(6), instant(rs, "due_at")));
                    }
                }
            }
            return out;
        });
    }

    /** Closes the database. */
    @Override
    public void close() {
        db.close();
    }

    private void requireRoom(Connection c, String tenantId, String roomId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM rooms WHERE tenant_id = ? AND id = ?")) {
            try (ResultSet rs = bind(ps, tenantId, roomId).executeQuery()) {
                if (!rs.next()) {
                    throw new NoSuchElementException("no room " + roomId);
                }
            }
        }
    }
}
