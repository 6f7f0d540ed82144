package dev.svc.chat.reference.cluster;

import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.Store;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hands this node's sockets the {@code room-read} events the bus did not bring, read from the database: a
 * user's receipt of a room only moves forward (its {@code seq} grows), so what the sockets missed is every
 * receipt whose {@code seq} is above the one this node handed them for that user and room. Every receipt
 * handed (published here, arrived from another node, or read here) is noted, and one at or below the noted
 * {@code seq} is not handed again. Noted: one number per receipt in the database, for the node's life.
 */
final class ReceiptCatchUp {

    private final EventPublisher local;
    private final Store store;
    private final Database db;
    /** "tenant NUL room NUL user" -> the seq of the receipt handed to this node's sockets. */
    private final Map<String, Long> handed = new HashMap<>();

    ReceiptCatchUp(EventPublisher local, Store store, Database db) {
        this.local = local;
        this.store = store;
        this.db = db;
    }

    /** Notes every receipt stored before this node's sockets could hear of it. */
    synchronized void baseline() {
        for (Stored r : read(null, null)) {
            handed.merge(key(r.tenantId, r.receipt.roomId(), r.receipt.userId()), r.receipt.seq(), Math::max);
        }
    }

    /**
     * Hands {@code payload} (a {@code room-read} of {@code userId} at {@code seq}) to the room's sockets unless
     * that receipt or a later one was handed already.
     */
    synchronized void deliverOnce(String tenantId, Room room, String userId, long seq, Object payload) {
        String key = key(tenantId, room.id(), userId);
        Long before = handed.get(key);
        if (before == null || before < seq) {
            handed.put(key, seq);
            local.toRoomMembers(tenantId, room, MessageActions.ROOM_READ, payload);
        }
    }

    /** Hands the sockets every receipt of every room that moved past what they were handed. */
    void all() {
        catchUp(read(null, null));
    }

    /** Hands the sockets every receipt of one room that moved past what they were handed. */
    void room(String tenantId, String roomId) {
        catchUp(read(tenantId, roomId));
    }

    private void catchUp(List<Stored> stored) {
        Map<String, Optional<Room>> rooms = new HashMap<>();
        for (Stored r : stored) {
            Long before;
            synchronized (this) {
                before = handed.get(key(r.tenantId, r.receipt.roomId(), r.receipt.userId()));
            }
            if (before != null && before >= r.receipt.seq()) {
                continue;
            }
            Optional<Room> room = rooms.computeIfAbsent(r.tenantId + '\u0000' + r.receipt.roomId(),
                    k -> store.room(r.tenantId, r.receipt.roomId()));
            if (room.isPresent()) {
                deliverOnce(r.tenantId, room.get(), r.receipt.userId(), r.receipt.seq(), r.receipt);
            }
        }
    }

    private record Stored(String tenantId, Receipt receipt) {
    }

    /** Reads the receipts of one room, or of every room when {@code tenantId} is null. */
    private List<Stored> read(String tenantId, String roomId) {
        return db.tx(c -> {
            List<Stored> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT tenant_id, room_id, user_id, message_id, seq,"
                    + " read_at FROM receipts" + (tenantId != null ? " WHERE tenant_id = ? AND room_id = ?" : ""))) {
                if (tenantId != null) {
                    ps.setString(1, tenantId);
                    ps.setString(2, roomId);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Stored(rs.getString(1), new Receipt(rs.getString(2), rs.getString(3),
                                rs.getString(4), rs.getLong(5), Instant.ofEpochMilli(rs.getLong(6)))));
                    }
                }
            }
            return out;
        });
    }

    private static String key(String tenantId, String roomId, String userId) {
        return tenantId + '\u0000' + roomId + '\u0000' + userId;
    }
}
