package dev.svc.chat.reference.gateway;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.service.OnlineUsers;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Routes realtime events to connections. It indexes connected sessions by user (a user's own channel) and
 * by joined room, and delivers by enqueueing one pre-encoded frame per target, never blocking. Later events
 * (message-updated, typing, presence, receipts, calls) reuse these two indexes.
 */
public final class FanOut implements EventPublisher, OnlineUsers {

    private final Frames frames;
    private final Map<String, Set<GatewayConnection>> byUser = new ConcurrentHashMap<>();
    private final Map<String, Set<GatewayConnection>> byJoinedRoom = new ConcurrentHashMap<>();

    FanOut(Frames frames) {
        this.frames = frames;
    }

    /** Indexes a connection that completed its handshake (token connections only: API keys are nobody). */
    void register(GatewayConnection connection, Principal principal) {
        if (!principal.isApiKey()) {
            add(byUser, key(principal.tenantId(), principal.userId()), connection);
        }
    }

    /** Forgets a connection whose session ended, including its joined room. */
    void unregister(GatewayConnection connection, Principal principal, String joinedRoomId) {
        if (!principal.isApiKey()) {
            remove(byUser, key(principal.tenantId(), principal.userId()), connection);
        }
        if (joinedRoomId != null) {
            remove(byJoinedRoom, key(principal.tenantId(), joinedRoomId), connection);
        }
    }

    /** Moves a connection's joined room from {@code oldRoomId} (or none) to {@code newRoomId} (or none). */
    void moveJoined(GatewayConnection connection, String tenantId, String oldRoomId, String newRoomId) {
        if (oldRoomId != null) {
            remove(byJoinedRoom, key(tenantId, oldRoomId), connection);
        }
        if (newRoomId != null) {
            add(byJoinedRoom, key(tenantId, newRoomId), connection);
        }
    }

    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload) {
        // A set: a member's connection that also joined the room gets the event once.
        Set<GatewayConnection> targets = new LinkedHashSet<>();
        for (String member : room.memberIds()) {
            Set<GatewayConnection> own = byUser.get(key(tenantId, member));
            if (own != null) {
                targets.addAll(own);
            }
        }
        Set<GatewayConnection> joined = byJoinedRoom.get(key(tenantId, room.id()));
        if (joined != null) {
            for (GatewayConnection connection : joined) {
                if (connection.isApiKey()) {
                    targets.add(connection);
                }
            }
        }
        if (targets.isEmpty()) {
            return;
        }
        String frame = frames.event(event, payload);
        for (GatewayConnection connection : targets) {
            connection.deliver(frame);
        }
    }

    @Override
    public boolean isOnline(String tenantId, String userId) {
        Set<GatewayConnection> own = byUser.get(key(tenantId, userId));
        return own != null && !own.isEmpty();
    }

    private static String key(String tenantId, String id) {
        return tenantId + '\u0000' + id;
    }

    private static void add(Map<String, Set<GatewayConnection>> index, String key, GatewayConnection c) {
        index.compute(key, (k, set) -> {
            Set<GatewayConnection> s = set != null ? set : ConcurrentHashMap.newKeySet();
            s.add(c);
            return s;
        });
    }

    private static void remove(Map<String, Set<GatewayConnection>> index, String key, GatewayConnection c) {
        index.computeIfPresent(key, (k, set) -> {
            set.remove(c);
            return set.isEmpty() ? null : set;
        });
    }
}
