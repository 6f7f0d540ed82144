package dev.svc.chat.reference.gateway;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.service.PresenceDirectory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Routes realtime events to connections. It indexes connected sessions by user (a user's own channel) and
 * by joined room, and delivers by enqueueing one pre-encoded frame per target, never blocking. Later events
 * (message-updated, typing, presence, receipts, calls) reuse these two indexes.
 */
public final class FanOut implements EventPublisher, PresenceDirectory {

    /** The realtime event of a user going online or offline. */
    static final String TENANT_PRESENCE = "tenant-presence";
    /** The realtime event of a typing indicator. */
    static final String TYPING = "typing";

    private final Frames frames;
    private final Map<String, Set<GatewayConnection>> byUser = new ConcurrentHashMap<>();
    private final Map<String, Set<GatewayConnection>> byJoinedRoom = new ConcurrentHashMap<>();
    // Token connections by tenant, the online users by tenant and each user's count of sessions: changed only
    // under presenceLock, which makes a user's online/offline flips and their events happen in one order.
    private final Map<String, Set<GatewayConnection>> byTenant = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> onlineByTenant = new ConcurrentHashMap<>();
    private final Map<String, Integer> connectionCounts = new ConcurrentHashMap<>();
    private final Object presenceLock = new Object();
    // Room events hold the read side while they pick and enqueue to their targets; indexing a user's connection
    // takes the write side. So an event either reaches the new connection or was already queued on the user's
    // older connections before it was indexed: a client that switches connections (a token refresh) can use
    // an ack on the old connection as a barrier behind everything it alone will get.
    private final ReentrantReadWriteLock deliveryOrder = new ReentrantReadWriteLock();

    FanOut(Frames frames) {
        this.frames = frames;
    }

    /**
     * Counts a connection that is completing its handshake as online (token connections only: API keys are
     * nobody and cause no presence). Called before the handshake is answered, so that a user's other
     * connection closing right after this one's answer can never make them look offline. A user's first
     * connection makes them online: {@code tenant-presence} goes to the tenant's indexed token connections,
     * which this one is not yet (it learns who is online from {@code GET /v1/presence}, itself included).
     */
    void countOnline(Principal principal, Instant at) {
        if (principal.isApiKey()) {
            return;
        }
        synchronized (presenceLock) {
            String tenantId = principal.tenantId();
            if (connectionCounts.merge(key(tenantId, principal.userId()), 1, Integer::sum) == 1) {
                onlineByTenant.computeIfAbsent(tenantId, k -> ConcurrentHashMap.newKeySet()).add(principal.userId());
                presence(tenantId, principal.userId(), true, at);
            }
        }
    }

    /**
     * Indexes a connection whose handshake is being answered (after {@link #countOnline}); the connection
     * holds what it is delivered until its answer is queued.
     */
    void register(GatewayConnection connection, Principal principal) {
        if (principal.isApiKey()) {
            return;
        }
        synchronized (presenceLock) {
            deliveryOrder.writeLock().lock();
            try {
                add(byTenant, principal.tenantId(), connection);
                add(byUser, key(principal.tenantId(), principal.userId()), connection);
            } finally {
                deliveryOrder.writeLock().unlock();
            }
        }
    }

    /**
     * Forgets a connection whose session ended, including its joined room. A user's last connection closing
     * makes them offline for the tenant's other token connections.
     */
    void unregister(GatewayConnection connection, Principal principal, String joinedRoomId, Instant at) {
        if (joinedRoomId != null) {
            remove(byJoinedRoom, key(principal.tenantId(), joinedRoomId), connection);
        }
        if (principal.isApiKey()) {
            return;
        }
        synchronized (presenceLock) {
            String tenantId = principal.tenantId();
            String userKey = key(tenantId, principal.userId());
            remove(byTenant, tenantId, connection);
            remove(byUser, userKey, connection);
            Integer left = connectionCounts.computeIfPresent(userKey, (k, n) -> n == 1 ? null : n - 1);
            if (left == null) {
                onlineByTenant.computeIfPresent(tenantId, (k, users) -> {
                    users.remove(principal.userId());
                    return users.isEmpty() ? null : users;
                });
                presence(tenantId, principal.userId(), false, at);
            }
        }
    }

    @Override
    public List<String> onlineUsers(String tenantId) {
        synchronized (presenceLock) {
            Set<String> users = onlineByTenant.get(tenantId);
            return users == null ? List.of() : List.copyOf(new TreeSet<>(users));
        }
    }

    /**
     * Sends {@code typing} to the connections that joined the room, except the typer's own connections (an
     * API-key connection that joined the room gets it too).
     */
    void typing(String tenantId, String roomId, String userId, boolean isTyping) {
        Set<GatewayConnection> joined = byJoinedRoom.get(key(tenantId, roomId));
        if (joined == null) {
            return;
        }
        List<GatewayConnection> targets = new ArrayList<>();
        for (GatewayConnection connection : joined) {
            if (connection.isApiKey() || !userId.equals(connection.userId())) {
                targets.add(connection);
            }
        }
        if (targets.isEmpty()) {
            return;
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("roomId", roomId);
        payload.put("userId", userId);
        payload.put("isTyping", isTyping);
        String frame = frames.event(TYPING, payload);
        for (GatewayConnection connection : targets) {
            connection.deliver(frame);
        }
    }

    @Override
    public void memberRemoved(String tenantId, String roomId, String userId) {
        Set<GatewayConnection> own = byUser.get(key(tenantId, userId));
        if (own != null) {
            for (GatewayConnection connection : List.copyOf(own)) {
                connection.leave(roomId);
            }
        }
    }

    private void presence(String tenantId, String userId, boolean online, Instant at) {
        Set<GatewayConnection> targets = byTenant.get(tenantId);
        if (targets == null || targets.isEmpty()) {
            return;
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("userId", userId);
        payload.put("online", online);
        payload.put("at", at);
        String frame = frames.event(TENANT_PRESENCE, payload);
        for (GatewayConnection connection : targets) {
            connection.deliver(frame);
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
        deliveryOrder.readLock().lock();
        try {
            deliverToRoomMembers(tenantId, room, event, payload);
        } finally {
            deliveryOrder.readLock().unlock();
        }
    }

    private void deliverToRoomMembers(String tenantId, Room room, String event, Object payload) {
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
        return connectionCounts.containsKey(key(tenantId, userId));
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
