package dev.svc.chat.reference.service;

import dev.svc.chat.reference.model.Call;
import dev.svc.chat.reference.model.Room;

/**
 * Where the service hands realtime events. Implementations only enqueue and never block: they are called
 * while the room's lock is held, which is what keeps per-room events in seq order on every connection.
 */
public interface EventPublisher {

    /** A publisher that drops everything, for a server without a gateway. */
    EventPublisher NONE = (tenantId, room, event, payload) -> { };

    /**
     * Sends {@code event} with {@code payload} to every connection of every member of {@code room} and to
     * the API-key connections that joined it.
     */
    void toRoomMembers(String tenantId, Room room, String event, Object payload);

    /**
     * As {@link #toRoomMembers(String, Room, String, Object)}, with {@code payloadJson}: the payload as the
     * server's mapper encodes it, made once by the caller so that a publisher that writes the payload as JSON
     * need not encode it again. The default ignores it.
     */
    default void toRoomMembers(String tenantId, Room room, String event, Object payload, String payloadJson) {
        toRoomMembers(tenantId, room, event, payload);
    }

    /**
     * Sends call event {@code event} (a {@code call-*} event) of {@code call} as {@link #toRoomMembers(String,
     * Room, String, Object)} does; {@code version} is the version of the stored change that made it (the events
     * of one change share it), by which a cluster's node hands each event to its sockets once. The default
     * ignores it.
     */
    default void callChanged(String tenantId, Room room, String event, Call call, long version) {
        toRoomMembers(tenantId, room, event, call);
    }

    /**
     * Tells the realtime side that {@code userId} is no longer a member of the room: that user's connections
     * that had it joined stop being joined to it (so they get none of its typing any more).
     */
    default void memberRemoved(String tenantId, String roomId, String userId) {
    }
}
