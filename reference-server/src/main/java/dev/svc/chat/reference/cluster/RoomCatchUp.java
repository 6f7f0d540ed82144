package dev.svc.chat.reference.cluster;

import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.Store;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands this node's sockets the message events ({@code new-message}, {@code message-updated}) that the bus
 * did not bring, read from the database by {@code rev}: every room's change takes the room's next revision in
 * its own transaction, so what a room's sockets missed is exactly the revisions above what this node handed
 * them ({@link RoomRevisions}). A message is read in its latest state, once, in ascending {@code rev}: as
 * {@code new-message} when its new message was not handed to the sockets, else as {@code message-updated}.
 * Revisions read here are noted, so that the notification that brings one later is dropped.
 *
 * <p>Receipts, call events and member removals are caught up with the rooms ({@link ReceiptCatchUp},
 * {@link CallCatchUp}, {@link MemberCatchUp}): all of them after a gap or a node's death, a room's when its
 * room is announced.
 *
 * <p>Runs on the bus's listening thread, between notifications: what it reads after the bus listened again
 * reaches the sockets before anything the new connection brings.
 */
final class RoomCatchUp {

    private static final Logger LOG = LoggerFactory.getLogger(RoomCatchUp.class);
    /** Changed messages read at once. */
    static final int PAGE = 100;

    private final RoomRevisions revisions;
    private final EventPublisher local;
    private final Store store;
    private final Database db;
    private final ReceiptCatchUp receipts;
    private final CallCatchUp calls;
    private final MemberCatchUp members;
    /** Set when every room is to be caught up (a gap of unknown rooms, or a catch-up that failed). */
    private volatile boolean allDue;

    /** {@code joined} tells which rooms this node's token connections joined ("tenant NUL room" -> users). */
    RoomCatchUp(RoomRevisions revisions, EventPublisher local, Supplier<Map<String, Set<String>>> joined, Store store,
                Database db) {
        this.revisions = revisions;
        this.local = local;
        this.store = store;
        this.db = db;
        this.receipts = new ReceiptCatchUp(local, store, db);
        this.calls = new CallCatchUp(local, store, db);
        this.members = new MemberCatchUp(local, joined, store);
    }

    /** The receipts this node handed its sockets. */
    ReceiptCatchUp receipts() {
        return receipts;
    }

    /** The call events this node handed its sockets. */
    CallCatchUp calls() {
        return calls;
    }

    /** Notes where every room stands before this node's sockets could hear of it (at start, once listening). */
    void baseline() {
        for (RoomState room : readRooms()) {
            revisions.baseline(room.tenantId, room.roomId, room.rev, room.lastSeq);
        }
        receipts.baseline();
        calls.baseline();
    }

    /**
     * Asks for every room to be caught up at the next {@link #runDue()}: after the bus listened again, or when
     * another node died (its unsent notifications died with it).
     */
    void requestAll() {
        allDue = true;
    }

    /**
     * Catches up what is due: every room if asked for (asked again if the database cannot be read), then the
     * rooms whose holes are older than the grace.
     */
    void runDue() {
        if (allDue) {
            allDue = false;
            try {
                all();
            } catch (RuntimeException e) {
                allDue = true;
                LOG.warn("could not catch up from the database yet: {}", e.toString());
                return;
            }
        }
        for (RoomRevisions.Room room : revisions.holesOlderThanGrace()) {
            room(room);
        }
    }

    /** Catches up every room whose revision in the database is above what this node handed its sockets. */
    private void all() {
        for (RoomState state : readRooms()) {
            RoomRevisions.Room room = revisions.room(state.tenantId, state.roomId);
            if (room.floor() < state.rev) {
                room(room);
            }
        }
        receipts.all();
        calls.all();
        members.all();
    }

    /**
     * Catches up one room's messages if its revision {@code rev} (told by another node; 0 for none) was not
     * handed to the sockets, its receipts, its calls and its removed members.
     */
    void room(String tenantId, String roomId, long rev) {
        RoomRevisions.Room room = revisions.room(tenantId, roomId);
        if (!room.has(rev)) {
            room(room);
        }
        try {
            receipts.room(tenantId, roomId);
            calls.room(tenantId, roomId);
            members.room(tenantId, roomId);
        } catch (RuntimeException e) {
            allDue = true;
            LOG.warn("could not catch up the receipts, calls or members of room {} from the database: {}", roomId,
                    e.toString());
        }
    }

    /**
     * Hands the sockets every message of the room changed above what they were handed, in ascending rev; if the
     * database cannot be read, every room is caught up later.
     */
    private void room(RoomRevisions.Room room) {
        try {
            long since = room.floor();
            while (true) {
                ChangesPage page = store.changes(room.tenantId, room.roomId, since, PAGE);
                Optional<Room> current = store.room(room.tenantId, room.roomId);
                if (current.isEmpty()) {
                    return;
                }
                synchronized (room) {
                    for (Message message : page.messages()) {
                        if (!room.has(message.rev())) {
                            boolean isNew = !room.hasSeq(message.seq());
                            local.toRoomMembers(room.tenantId, current.get(),
                                    isNew ? ChatService.NEW_MESSAGE : MessageActions.MESSAGE_UPDATED, message);
                        }
                        // handed now or before in its latest state (maybe only as an update): the message is known
                        room.note(message.rev(), message.seq());
                    }
                    List<Message> messages = page.messages();
                    room.noteThrough(page.hasMore() ? messages.get(messages.size() - 1).rev() : page.rev());
                }
                if (!page.hasMore()) {
                    return;
                }
                since = page.messages().get(page.messages().size() - 1).rev();
            }
        } catch (RuntimeException e) {
            allDue = true;
            LOG.warn("could not catch up room {} from the database: {}", room.roomId, e.toString());
        }
    }

    private record RoomState(String tenantId, String roomId, long rev, long lastSeq) {
    }

    private List<RoomState> readRooms() {
        return db.tx(c -> {
            List<RoomState> rooms = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT tenant_id, id, rev, last_seq FROM rooms WHERE rev > 0");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rooms.add(new RoomState(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
                }
            }
            return rooms;
        });
    }
}
