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
import dev.svc.chat.reference.model.ThreadSummary;
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
            + " created_at, edited_at, deleted_at, reactions, reply_to_id, thread_id, mentions, thread";

    private final JdbcRooms rooms;

    JdbcMessages(JdbcRooms rooms) {
        this.rooms = rooms;
    }

    AppendResult append(Connection c, String tenantId, String roomId, String senderId, String clientMessageId,
                        List<JsonNode> parts, MessageLinks links, Instant now) throws SQLException {
        Room room = rooms.room(c, tenantId, roomId, true)
                .orElseThrow(() -> new NoSuchElementException("no room " + roomId));
        Optional<Message> first = byClientId(c, tenantId, roomId, senderId, clientMessageId);
        if (first.isPresent()) {
            return new AppendResult(first.get(), false, room);
        }
        // Read under the room's row lock, which every change of the room's messages takes first.
        Message root = links.threadId() == null ? null : openRoot(c, tenantId, roomId, links.threadId());
        long seq = room.lastMessageSeq() + 1;
        long rev = room.rev() + 1;
        Message message = new Message(UUID.randomUUID().toString(), roomId, seq, rev, senderId, parts,
                clientMessageId, now, null, null, Map.of(), links.replyToId(), links.threadId(), links.mentions(),
                null);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO messages (tenant_id, room_id, seq, id, rev,"
                + " sender_id, client_message_id, parts, reactions, created_at, reply_to_id, thread_id, mentions)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            bind(ps, tenantId, roomId, seq, message.id(), rev, senderId, clientMessageId, json(parts), "{}", now,
                    links.replyToId(), links.threadId(), json(message.mentions())).executeUpdate();
        }
        Message changedRoot = null;
        if (root != null) {
            rev++;
            changedRoot = storeThread(c, tenantId, root.withThread(ThreadSummary.afterReply(root.thread(), senderId,
                    now)).withRev(rev));
        }
        rooms.advance(c, tenantId, roomId, seq, rev, now);
        return new AppendResult(message, true, new Room(room.id(), room.name(), room.memberIds(),
                room.createdAt(), seq, now, rev), changedRoot);
    }

    private Message openRoot(Connection c, String tenantId, String roomId, String threadId) throws SQLException {
        Message root = byId(c, tenantId, roomId, threadId).orElse(null);
        if (root == null || root.threadId() != null) {
            throw new ClosedThreadException("threadId is not a root message of this room", false);
        }
        if (root.deletedAt() != null) {
            throw new ClosedThreadException("The thread's root is deleted", true);
        }
        return root;
    }

    /** Writes a root's new summary at its new rev (the caller advances the room's rev). */
    private static Message storeThread(Connection c, String tenantId, Message root) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE messages SET rev = ?, thread = ?"
                + " WHERE tenant_id = ? AND room_id = ? AND id = ?")) {
            bind(ps, root.rev(), ThreadColumns.json(root.thread()), tenantId, root.roomId(), root.id())
                    .executeUpdate();
        }
        return root;
    }

    ChangeResult change(Connection c, String tenantId, Message updated) throws SQLException {
        Room room = rooms.room(c, tenantId, updated.roomId(), true)
                .orElseThrow(() -> new NoSuchElementException("no room " + updated.roomId()));
        // Read under the room's row lock: the summary is the store's, never a caller's older copy.
        Message current = byId(c, tenantId, updated.roomId(), updated.id())
                .filter(m -> m.seq() == updated.seq())
                .orElseThrow(() -> new NoSuchElementException("no message " + updated.id()));
        long rev = room.rev() + 1;
        Message stored = updated.withThread(current.thread()).withRev(rev);
        try (PreparedStatement ps = c.prepareStatement("UPDATE messages SET rev = ?, parts = ?, reactions = ?,"
                + " edited_at = ?, deleted_at = ?, mentions = ? WHERE tenant_id = ? AND room_id = ? AND id = ?"
                + " AND seq = ?")) {
            bind(ps, rev, json(stored.parts()), json(stored.reactions()), stored.editedAt(), stored.deletedAt(),
                    json(stored.mentions()), tenantId, stored.roomId(), stored.id(), stored.seq()).executeUpdate();
        }
        Message root = null;
        if (current.threadId() != null && current.deletedAt() == null && stored.deletedAt() != null) {
            Optional<Message> before = byId(c, tenantId, stored.roomId(), current.threadId());
            if (before.isPresent()) {
                rev++;
                root = storeThread(c, tenantId, before.get()
                        .withThread(recount(c, tenantId, stored.roomId(), current.threadId())).withRev(rev));
            }
        }
        rooms.advance(c, tenantId, room.id(), room.lastMessageSeq(), rev, null);
        return new ChangeResult(stored, root);
    }

    /** Counts the remaining replies of a root, newest first. */
    private static ThreadSummary recount(Connection c, String tenantId, String roomId, String rootId)
            throws SQLException {
        ThreadSummary.Tally tally = new ThreadSummary.Tally();
        try (PreparedStatement ps = c.prepareStatement("SELECT sender_id, created_at FROM messages WHERE"
                + " tenant_id = ? AND room_id = ? AND thread_id = ? AND deleted_at IS NULL ORDER BY seq DESC")) {
            try (ResultSet rs = bind(ps, tenantId, roomId, rootId).executeQuery()) {
                while (rs.next()) {
                    tally.add(rs.getString(1), instant(rs, "created_at"));
                }
            }
        }
        return tally.summary();
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
        return page(c, tenantId, roomId, page, "", null);
    }

    /** Returns a page of a thread's replies ({@code threadId}), or with null of the messages that are no reply. */
    MessagePage threadPage(Connection c, String tenantId, String roomId, PageRequest page, String threadId)
            throws SQLException {
        return threadId == null ? page(c, tenantId, roomId, page, " AND thread_id IS NULL", null)
                : page(c, tenantId, roomId, page, " AND thread_id = ?", threadId);
    }

    private MessagePage page(Connection c, String tenantId, String roomId, PageRequest page, String filter,
                             String threadId) throws SQLException {
        boolean forward = page.after() != null;
        String sql = "SELECT " + COLUMNS + " FROM messages WHERE tenant_id = ? AND room_id = ?" + filter
                + (forward ? " AND seq > ? ORDER BY seq" : " AND seq < ? ORDER BY seq DESC") + " LIMIT ?";
        long bound = forward ? page.after() : page.before() != null ? page.before() : Long.MAX_VALUE;
        List<Message> messages = threadId == null ? list(c, sql, tenantId, roomId, bound, page.limit() + 1)
                : list(c, sql, tenantId, roomId, threadId, bound, page.limit() + 1);
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
                SqlValues.reactions(rs.getString("reactions")), rs.getString("reply_to_id"),
                rs.getString("thread_id"), SqlValues.strings(rs.getString("mentions")),
                ThreadColumns.summary(rs.getString("thread")));
    }

    private static Receipt receipt(ResultSet rs) throws SQLException {
        return new Receipt(rs.getString("room_id"), rs.getString("user_id"), rs.getString("message_id"),
                rs.getLong("seq"), instant(rs, "read_at"));
    }
}
