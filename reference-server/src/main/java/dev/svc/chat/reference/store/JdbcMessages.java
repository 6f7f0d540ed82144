package dev.svc.chat.reference.store;

import static dev.svc.chat.reference.store.SqlValues.bind;
import static dev.svc.chat.reference.store.SqlValues.instant;
import static dev.svc.chat.reference.store.SqlValues.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;

/**
 * Messages and read receipts in SQL; every method runs inside the caller's transaction. A send or a change
 * locks the room's row and takes its next seq and rev in the same transaction that stores the message.
 */
final class JdbcMessages {

    private static final String COLUMNS = "id, room_id, seq, rev, sender_id, parts, client_message_id,"
            + " created_at, edited_at, deleted_at, reactions";

    private final JdbcRooms rooms;

    JdbcMessages(JdbcRooms rooms) {
        this.rooms = rooms;
    }

    AppendResult append(Connection c, String tenantId, String roomId, String senderId, String clientMessageId,
                        List<JsonNode> parts, Instant now) throws SQLException {
        Room room = rooms.room(c, tenantId, roomId, true)
                .orElseThrow(() -> new NoSuchElementException("no room " + roomId));
        Optional<Message> first = byClientId(c, tenantId, roomId, senderId, clientMessageId);
        if (first.isPresent()) {
            return new AppendResult(first.get(), false, room);
        }
        long seq = room.lastMessageSeq() + 1;
        long rev = room.rev() + 1;
        Message message = new Message(UUID.randomUUID().toString(), roomId, seq, rev, senderId, parts,
                clientMessageId, now, null, null, Map.of());
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO messages (tenant_id, room_id, seq, id, rev,"
                + " sender_id, client_message_id, parts, reactions, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            bind(ps, tenantId, roomId, seq, message.id(), rev, senderId, clientMessageId, json(parts), "{}", now)
                    .executeUpdate();
        }
        rooms.advance(c, tenantId, roomId, seq, rev, now);
        return new AppendResult(message, true, new Room(room.id(), room.name(), room.memberIds(),
                room.createdAt(), seq, now, rev));
    }

    Message replace(Connection c, String tenantId, Message updated) throws SQLException {
        Room room = rooms.room(c, tenantId, updated.roomId(), true)
                .orElseThrow(() -> new NoSuchElementException("no room " + updated.roomId()));
        long rev = room.rev() + 1;
        Message stored = updated.withRev(rev);
        try (PreparedStatement ps = c.prepareStatement("UPDATE messages SET rev = ?, parts = ?, reactions = ?,"
                + " edited_at = ?, deleted_at = ? WHERE tenant_id = ? AND room_id = ? AND id = ? AND seq = ?")) {
            int n = bind(ps, rev, json(stored.parts()), json(stored.reactions()), stored.editedAt(),
                    stored.deletedAt(), tenantId, stored.roomId(), stored.id(), stored.seq()).executeUpdate();
            if (n != 1) {
                throw new NoSuchElementException("no message " + updated.id());
            }
        }
        rooms.advance(c, tenantId, room.id(), room.lastMessageSeq(), rev, null);
        return stored;
    }

    Optional<Message> byClientId(Connection c, String tenantId, String roomId, String senderId,
                                 String clientMessageId) throws SQLException {
        return one(c, "room_id = ? AND sender_id = ? AND client_message_id = ?", tenantId, roomId, senderId,
                clientMessageId);
    }

    Optional<Message> byId(Connection c, String tenantId, String roomId, String messageId) throws SQLException {
        return one(c, "room_id = ? AND id = ?", tenantId, roomId, messageId);
    }

    MessagePage page(Connection c, String tenantId, String roomId, PageRequest page) throws SQLException {
        boolean forward = page.after() != null;
        String sql = "SELECT " + COLUMNS + " FROM messages WHERE tenant_id = ? AND room_id = ?"
                + (forward ? " AND seq > ? ORDER BY seq" : " AND seq < ? ORDER BY seq DESC") + " LIMIT ?";
        long bound = forward ? page.after() : page.before() != null ? page.before() : Long.MAX_VALUE;
        List<Message> messages = list(c, sql, tenantId, roomId, bound, page.limit() + 1);
        boolean hasMore = messages.size() > page.limit();
        if (hasMore) {
            messages.remove(messages.size() - 1);
        }
        if (!forward) {
            Collections.reverse(messages);
        }
        return new MessagePage(messages, hasMore);
    }

    ChangesPage changes(Connection c, String tenantId, String roomId, long since, int limit) throws SQLException {
        Room room = rooms.room(c, tenantId, roomId, false)
                .orElseThrow(() -> new NoSuchElementException("no room " + roomId));
        List<Message> messages = list(c, "SELECT " + COLUMNS + " FROM messages WHERE tenant_id = ? AND room_id = ?"
                + " AND rev > ? AND rev <= ? ORDER BY rev LIMIT ?", tenantId, roomId, since, room.rev(), limit + 1);
        boolean hasMore = messages.size() > limit;
        if (hasMore) {
            messages.remove(messages.size() - 1);
        }
        return new ChangesPage(messages, room.rev(), hasMore);
    }

    Optional<Receipt> receipt(Connection c, String tenantId, String roomId, String userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT room_id, user_id, message_id, seq, read_at"
                + " FROM receipts WHERE tenant_id = ? AND room_id = ? AND user_id = ?")) {
            try (ResultSet rs = bind(ps, tenantId, roomId, userId).executeQuery()) {
                return rs.next() ? Optional.of(receipt(rs)) : Optional.empty();
            }
        }
    }

    void putReceipt(Connection c, String tenantId, Receipt r) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE receipts SET message_id = ?, seq = ?, read_at = ?"
                + " WHERE tenant_id = ? AND room_id = ? AND user_id = ?")) {
            if (bind(update, r.messageId(), r.seq(), r.readAt(), tenantId, r.roomId(), r.userId()).executeUpdate() == 1) {
                return;
            }
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO receipts (tenant_id, room_id, user_id,"
                + " message_id, seq, read_at) VALUES (?, ?, ?, ?, ?, ?)")) {
            bind(insert, tenantId, r.roomId(), r.userId(), r.messageId(), r.seq(), r.readAt()).executeUpdate();
        }
    }

    List<Receipt> receipts(Connection c, String tenantId, String roomId) throws SQLException {
        List<Receipt> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT r.room_id, r.user_id, r.message_id, r.seq, r.read_at"
                + " FROM receipts r JOIN room_members m ON m.tenant_id = r.tenant_id AND m.room_id = r.room_id"
                + " AND m.user_id = r.user_id WHERE r.tenant_id = ? AND r.room_id = ? ORDER BY m.pos")) {
            try (ResultSet rs = bind(ps, tenantId, roomId).executeQuery()) {
                while (rs.next()) {
                    out.add(receipt(rs));
                }
            }
        }
        return out;
    }

    private Optional<Message> one(Connection c, String where, Object... values) throws SQLException {
        List<Message> found = list(c, "SELECT " + COLUMNS + " FROM messages WHERE tenant_id = ? AND " + where, values);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    private static List<Message> list(Connection c, String sql, Object... values) throws SQLException {
        List<Message> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            try (ResultSet rs = bind(ps, values).executeQuery()) {
                while (rs.next()) {
                    out.add(message(rs));
                }
            }
        }
        return out;
    }

    private static Message message(ResultSet rs) throws SQLException {
        return new Message(rs.getString("id"), rs.getString("room_id"), rs.getLong("seq"), rs.getLong("rev"),
                rs.getString("sender_id"), SqlValues.nodes(rs.getString("parts")), rs.getString("client_message_id"),
                instant(rs, "created_at"), instant(rs, "edited_at"), instant(rs, "deleted_at"),
                SqlValues.reactions(rs.getString("reactions")));
    }

    private static Receipt receipt(ResultSet rs) throws SQLException {
        return new Receipt(rs.getString("room_id"), rs.getString("user_id"), rs.getString("message_id"),
                rs.getLong("seq"), instant(rs, "read_at"));
    }
}
