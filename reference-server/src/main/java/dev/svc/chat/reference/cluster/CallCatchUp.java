package dev.svc.chat.reference.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.Call;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.CallService;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.Store;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hands this node's sockets the call events ({@code call-*}) the bus did not bring, read from the database by
 * the call's version: each stored change of a call takes its next version, and the events of that change carry
 * it. Per call this node notes the version it handed its sockets and which events of that version; an event
 * at or below it (published here, arrived from another node, or read here) is not handed again.
 *
 * <p>A call read at a version above the noted one is handed as the events its stored state stands for, once,
 * in its latest state (as a message is): {@code call-invite} while it rings at version 1, {@code call-declined}
 * while it rings after a decline, {@code call-accepted} when it is active with a participant the sockets were
 * not handed, {@code call-declined} and {@code call-ended} when every member declined, {@code call-ended}
 * when it ended. A participant's leaving an active call sends no event, so it is only noted. A call that both
 * started and ended in a gap is handed as {@code call-ended} (the missed call). Noted: a version, the events
 * of it and the participants, per call in the database, for the node's life.
 */
final class CallCatchUp {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() { };

    private final EventPublisher local;
    private final Store store;
    private final Database db;
    /** "tenant NUL call" -> what this node handed its sockets of that call. */
    private final Map<String, Handed> handed = new HashMap<>();

    /** The latest version of a call handed to the sockets, its events handed, and its participants then. */
    private static final class Handed {
        final long version;
        final Set<String> events = new HashSet<>(2);
        final List<String> participants;

        Handed(long version, List<String> participants) {
            this.version = version;
            this.participants = participants;
        }
    }

    CallCatchUp(EventPublisher local, Store store, Database db) {
        this.local = local;
        this.store = store;
        this.db = db;
    }

    /** Notes every call stored before this node's sockets could hear of it. */
    synchronized void baseline() {
        for (Stored s : read(null, null)) {
            noteAll(s);
        }
    }

    /**
     * Hands {@code payload} (call event {@code event} of call {@code callId} at {@code version}, with these
     * participants) to the room's sockets unless that event or a later version of the call was handed already.
     */
    synchronized void deliverOnce(String tenantId, Room room, String event, String callId, long version,
                                  List<String> participants, Object payload) {
        String key = tenantId + '\u0000' + callId;
        Handed h = handed.get(key);
        if (h != null && (h.version > version || h.version == version && h.events.contains(event))) {
            return;
        }
        if (h == null || h.version < version) {
            h = new Handed(version, participants);
            handed.put(key, h);
        }
        h.events.add(event);
        local.toRoomMembers(tenantId, room, event, payload);
    }

    /** Hands the sockets the events of every call that moved past what they were handed. */
    void all() {
        catchUp(read(null, null));
    }

    /** Hands the sockets the events of one room's calls that moved past what they were handed. */
    void room(String tenantId, String roomId) {
        catchUp(read(tenantId, roomId));
    }

    private void catchUp(List<Stored> stored) {
        Map<String, Optional<Room>> rooms = new HashMap<>();
        for (Stored s : stored) {
            List<String> missed;
            synchronized (this) {
                missed = missed(handed.get(s.tenantId + '\u0000' + s.call.id()), s);
            }
            if (missed.isEmpty()) {
                continue;
            }
            Optional<Room> room = rooms.computeIfAbsent(s.tenantId + '\u0000' + s.call.roomId(),
                    k -> store.room(s.tenantId, s.call.roomId()));
            if (room.isPresent()) {
                for (String event : missed) {
                    deliverOnce(s.tenantId, room.get(), event, s.call.id(), s.version, s.call.participantIds(),
                            s.call);
                }
            }
        }
    }

    /**
     * Returns the events of {@code s} the sockets were not handed (after {@code h}); a newer version that
     * stands for no event (a participant left) is noted here.
     */
    private List<String> missed(Handed h, Stored s) {
        if (h != null && h.version >= s.version) {
            List<String> missed = new ArrayList<>(h.version == s.version ? eventsOf(s) : List.of());
            missed.removeAll(h.events);
            return Call.ACTIVE.equals(s.call.status()) ? List.of() : missed; // an active change has one event
        }
        List<String> missed = switch (s.call.status()) {
            case Call.RINGING -> List.of(h == null ? CallService.CALL_INVITE : CallService.CALL_DECLINED);
            case Call.ACTIVE -> h == null || !h.participants.containsAll(s.call.participantIds())
                    ? List.of(CallService.CALL_ACCEPTED) : List.of();
            case Call.DECLINED -> h == null ? List.of(CallService.CALL_ENDED)
                    : List.of(CallService.CALL_DECLINED, CallService.CALL_ENDED);
            default -> List.of(CallService.CALL_ENDED);
        };
        if (missed.isEmpty()) {
            noteAll(s);
        }
        return missed;
    }

    /** The events the change that stored {@code s} published. */
    private static List<String> eventsOf(Stored s) {
        return switch (s.call.status()) {
            case Call.RINGING -> List.of(s.version == 1 ? CallService.CALL_INVITE : CallService.CALL_DECLINED);
            case Call.ACTIVE -> List.of(CallService.CALL_ACCEPTED);
            case Call.DECLINED -> List.of(CallService.CALL_DECLINED, CallService.CALL_ENDED);
            default -> List.of(CallService.CALL_ENDED);
        };
    }

    /** Notes {@code s} as handed with every event of its version. */
    private void noteAll(Stored s) {
        Handed h = new Handed(s.version, s.call.participantIds());
        h.events.addAll(eventsOf(s));
        handed.put(s.tenantId + '\u0000' + s.call.id(), h);
    }

    private record Stored(String tenantId, Call call, long version) {
    }

    /** Reads the calls of one room, or of every room when {@code tenantId} is null. */
    private List<Stored> read(String tenantId, String roomId) {
        return db.tx(c -> {
            List<Stored> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT tenant_id, id, room_id, kind, initiator_id, status,"
                    + " participant_ids, created_at, ended_at, end_reason, version FROM calls"
                    + (tenantId != null ? " WHERE tenant_id = ? AND room_id = ?" : ""))) {
                if (tenantId != null) {
                    ps.setString(1, tenantId);
                    ps.setString(2, roomId);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long endedAt = rs.getLong(9);
                        Instant ended = rs.wasNull() ? null : Instant.ofEpochMilli(endedAt);
                        Call call = new Call(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                                rs.getString(6), strings(rs.getString(7)), Instant.ofEpochMilli(rs.getLong(8)),
                                ended, rs.getString(10));
                        out.add(new Stored(rs.getString(1), call, rs.getLong(11)));
                    }
                }
            }
            return out;
        });
    }

    /** Reads a stored JSON array of user ids (as the store writes {@code participant_ids}). */
    private static List<String> strings(String json) {
        try {
            return JSON.readValue(json, STRINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable participant_ids: " + e.getOriginalMessage(), e);
        }
    }
}
