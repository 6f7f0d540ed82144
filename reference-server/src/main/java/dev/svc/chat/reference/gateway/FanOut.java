package dev.svc.chat.reference.gateway;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.service.PresenceDirectory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Routes realtime events to connections. It indexes connected sessions by user (a user's own channel) and
 * by joined room, and delivers by enqueueing one pre-encoded frame per target, never blocking; room events are
 * delivered on its own thread ({@link FanOutDispatcher}), in the order they were published. Later events
 * (message-updated, typing, presence, receipts, calls) reuse these two indexes.
 */
public final class FanOut implements EventPublisher, PresenceDirectory {

    /** The realtime event of a user going online or offline. */
    static final String TENANT_PRESENCE = "tenant-presence";
    /** The realtime event of a typing indicator. */
    static final String TYPING = "typing";

    private final Frames frames;
    private final PresenceFlusher presenceFlusher;
    // Tenant, then user: a fan-out looks up each member without building a key per member.
    private final Map<String, Map<String, Set<GatewayConnection>>> byUser = new ConcurrentHashMap<>();
    private final Map<String, Set<GatewayConnection>> byJoinedRoom = new ConcurrentHashMap<>();
    // Presence per tenant, each with its own lock: handshakes of one tenant never wait for another's.
    private final Map<String, TenantPresence> presence = new ConcurrentHashMap<>();
    // Room events hold the read side while they pick and enqueue to their targets; indexing a user's connection
    // takes the write side. So an event either reaches the new connection or was already queued on the user's
    // older connections before it was indexed: a client that switches connections (a token refresh) can use
    // an ack on the old connection as a barrier behind everything it alone will get. Under either side only a
    // connection's AnswerGate and Outbound monitors are taken, never a connection's own monitor,
    // and no side is asked for under a connection's monitor: so no cycle (docs/internals/server.md, "Locks").
    private final ReentrantReadWriteLock deliveryOrder = new ReentrantReadWriteLock();
    // Where presence and typing go to reach other nodes (a cluster); set before the server starts.
    private volatile ClusterRelay relay = ClusterRelay.NONE;
    private final FanOutDispatcher dispatcher = new FanOutDispatcher();
    /**
     * A room of at most this many members has its events delivered by a publisher in a span of
     * {@link #deliverInPlace}: as many queues as {@link Outbound#startAll} writes on its own thread.
     */
    static final int DELIVERED_IN_PLACE = Outbound.WRITTEN_IN_PLACE;
    // The queues to write when this thread's span of deliverInPlace closes; null outside one.
    private final ThreadLocal<List<Outbound>> inPlace = new ThreadLocal<>();
    // The writers' work ahead, shared by every connection's queue: a publisher waits while it is over its bound.
    private final WriteBacklog backlog = new WriteBacklog();
    private final FanOutWatchdog watchdog;
    // Where a test holds the fan-out or a handshake; NONE in production.
    private volatile FanOutSeam seam = FanOutSeam.NONE;

    FanOut(Frames frames, Duration presenceInterval) {
        this(frames, presenceInterval, FanOutWatchdog.DEFAULT_THRESHOLD);
    }

    /** A fan-out whose watchdog reports a stall of {@code stallThreshold} ({@link FanOutWatchdog}). */
    FanOut(Frames frames, Duration presenceInterval, Duration stallThreshold) {
        this.frames = frames;
        this.presenceFlusher = new PresenceFlusher(frames, presenceInterval);
        this.watchdog = new FanOutWatchdog(dispatcher, stallThreshold, System::nanoTime);
        watchdog.start();
    }

    /**
     * Counts a connection that is completing its handshake as online (token connections only: API keys are
     * nobody and cause no presence). Called before the handshake is answered, so that a user's other
     * connection closing right after this one's answer can never make them look offline. A user's first
     * connection makes them online: {@code tenant-presence} goes, in the next presence batch, to the
     * tenant's token connections indexed before it (this one learns who is online from
     * {@code GET /v1/presence}, itself included).
     */
    void countOnline(Principal principal, Instant at) {
        if (principal.isApiKey()) {
            return;
        }
        TenantPresence tenant = tenantPresence(principal.tenantId());
        if (tenant.opened(principal.userId(), at)) {
            presenceFlusher.markDirty(tenant);
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
        seam.registering(connection);
        deliveryOrder.writeLock().lock();
        try {
            tenantPresence(principal.tenantId()).register(connection);
            add(users(principal.tenantId()), principal.userId(), connection);
        } finally {
            deliveryOrder.writeLock().unlock();
        }
    }

    /**
     * Forgets a connection whose session ended, including its joined room. A user's last connection closing
     * makes them offline for the tenant's other token connections (in the next presence batch).
     */
    void unregister(GatewayConnection connection, Principal principal, String joinedRoomId, Instant at) {
        if (joinedRoomId != null) {
            remove(byJoinedRoom, key(principal.tenantId(), joinedRoomId), connection);
        }
        if (principal.isApiKey()) {
            return;
        }
        TenantPresence tenant = tenantPresence(principal.tenantId());
        tenant.unregister(connection);
        remove(users(principal.tenantId()), principal.userId(), connection);
        if (tenant.closed(principal.userId(), at)) {
            presenceFlusher.markDirty(tenant);
        }
    }

    @Override
    public List<String> onlineUsers(String tenantId) {
        TenantPresence tenant = presence.get(tenantId);
        return tenant == null ? List.of() : tenant.onlineUsers();
    }

    /** Returns the ids of the tenants that had a token connection on this server since it started. */
    public java.util.Set<String> tenantsWithPresence() {
        return java.util.Set.copyOf(presence.keySet());
    }

    /** Returns the number of indexed token connections and joined-room entries (bookkeeping, for tests). */
    int indexedConnections() {
        int n = 0;
        for (TenantPresence tenant : presence.values()) {
            n += tenant.heldEntries();
        }
        for (Map<String, Set<GatewayConnection>> users : byUser.values()) {
            for (Set<GatewayConnection> set : users.values()) {
                n += set.size();
            }
        }
        n += dispatcher.pending();
        for (Set<GatewayConnection> set : byJoinedRoom.values()) {
            n += set.size();
        }
        return n;
    }

    /** Returns how the fan-out thread is doing (a stuck fan-out is also logged at ERROR). */
    public FanOutHealth health() {
        return new FanOutHealth(watchdog.stalled(), watchdog.stalls(), dispatcher.failures(), dispatcher.pending());
    }

    /** Stops the presence, fan-out and watchdog threads. */
    void close() {
        watchdog.close();
        presenceFlusher.close();
        dispatcher.close();
    }

    /**
     * Sends this node's users' presence changes and typing to {@code relay} too (a cluster's other nodes,
     * see {@link RemoteEvents}); called before the server starts.
     */
    public void relayTo(ClusterRelay relay) {
        this.relay = relay;
    }

    /** Installs a test's seam ({@link FanOutSeam#NONE} removes it). */
    void seam(FanOutSeam seam) {
        this.seam = seam;
    }

    /** Returns the test's seam, {@link FanOutSeam#NONE} in production. */
    FanOutSeam seam() {
        return seam;
    }

    /** Relays a typing indicator of this node's connection to other nodes, then delivers it here. */
    void typing(String tenantId, String roomId, String userId, boolean isTyping) {
        relay.typing(tenantId, roomId, userId, isTyping);
        deliverTyping(tenantId, roomId, userId, isTyping);
    }

    /**
     * Sends {@code typing} to the connections that joined the room, except the typer's own connections (an
     * API-key connection that joined the room gets it too).
     */
    void deliverTyping(String tenantId, String roomId, String userId, boolean isTyping) {
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
        OutFrame frame = frames.event(TYPING, payload);
        for (GatewayConnection connection : targets) {
            connection.deliver(frame);
        }
    }

    @Override
    public void memberRemoved(String tenantId, String roomId, String userId) {
        Set<GatewayConnection> own = users(tenantId).get(userId);
        if (own != null) {
            for (GatewayConnection connection : List.copyOf(own)) {
                connection.leave(roomId);
            }
        }
    }

    /**
     * Returns which rooms this node's token connections have joined: "tenant NUL room" -> their users (a
     * snapshot; API-key connections are nobody's and left out).
     */
    Map<String, Set<String>> joinedByUsers() {
        Map<String, Set<String>> joined = new java.util.HashMap<>();
        byJoinedRoom.forEach((room, connections) -> {
            for (GatewayConnection connection : connections) {
                if (!connection.isApiKey() && connection.userId() != null) {
                    joined.computeIfAbsent(room, k -> new java.util.HashSet<>()).add(connection.userId());
                }
            }
        });
        return joined;
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

    /**
     * Encodes the event once, here, and hands its delivery to the fan-out thread: the caller (a send holding
     * its room's lock) does not wait for one enqueue per target. Deliveries run in call order, so a room's
     * events reach every connection in the order they were published. In a span of {@link #deliverInPlace}, a
     * small room's event with nothing before it at the fan-out thread is delivered by the caller instead.
     */
    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload) {
        toRoomMembers(tenantId, room, frames.event(event, payload));
    }

    /** As the other, the frame made of the caller's encoding of the payload (no second encoding). */
    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload, String payloadJson) {
        toRoomMembers(tenantId, room, frames.eventOfJson(event, payloadJson));
    }

    private void toRoomMembers(String tenantId, Room room, OutFrame frame) {
        // Waits (bounded) while the writers are behind, so that a sender's next message queues in its request,
        // not behind thousands of frames; counted until its own frames are (the room's size: an estimate).
        int ahead = room.memberIds().size();
        backlog.awaitRoom(ahead);
        List<Outbound> here = inPlace.get();
        if (here != null && ahead <= DELIVERED_IN_PLACE && !dispatcher.hasWork()) {
            // every earlier event of this room is delivered (its lock is held): this one may go now, from here
            deliveryOrder.readLock().lock();
            try {
                here.addAll(deliverToRoomMembers(tenantId, room, frame));
            } finally {
                deliveryOrder.readLock().unlock();
            }
            return;
        }
        backlog.add(ahead);
        boolean queued = dispatcher.submit(() -> {
            List<Outbound> starts;
            deliveryOrder.readLock().lock();
            try {
                starts = deliverToRoomMembers(tenantId, room, frame);
            } finally {
                deliveryOrder.readLock().unlock();
                backlog.remove(ahead);
            }
            // after the lock: a few queues are written on this thread, and a failed write may close a connection
            Outbound.startAll(starts);
        });
        if (!queued) {
            backlog.remove(ahead);
        }
    }

    /**
     * Opens a span on this thread in which a room event for a room of at most {@value #DELIVERED_IN_PLACE} members
     * is delivered by the publisher itself, when the fan-out thread has nothing before it: its frames are queued
     * at once (under the room's lock and the delivery order's read side, as the fan-out thread would) and written
     * when the span closes, holding no lock. For a socket's reader handling an event: a message into a small room
     * then reaches its readers with no fan-out thread woken. Close it on the same thread, holding none of the
     * gateway's locks (docs/internals/server.md, "Locks"). Spans do not nest.
     */
    InPlace deliverInPlace() {
        List<Outbound> starts = new ArrayList<>(2);
        inPlace.set(starts);
        return () -> {
            inPlace.remove();
            Outbound.startAll(starts); // a failed write may close a connection: no lock is held here
        };
    }

    /** A span of {@link #deliverInPlace}; closing it writes what was delivered in it. */
    interface InPlace extends AutoCloseable {
        @Override
        void close();
    }

    /** Returns how many room events the fan-out thread delivered (tests: those delivered in place are not). */
    long dispatched() {
        return dispatcher.completed();
    }

    /** Returns the writers' work ahead, which every connection's outbound queue counts into. */
    WriteBacklog writeBacklog() {
        return backlog;
    }

    /** Enqueues the frame for the room's connections; returns the queues whose writers are to be started. */
    private List<Outbound> deliverToRoomMembers(String tenantId, Room room, OutFrame frame) {
        // A set: a member's connection that also joined the room gets the event once.
        Set<GatewayConnection> targets = new LinkedHashSet<>();
        Map<String, Set<GatewayConnection>> users = byUser.get(tenantId);
        if (users != null) {
            for (String member : room.memberIds()) {
                Set<GatewayConnection> own = users.get(member);
                if (own != null) {
                    targets.addAll(own);
                }
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
        // One wake-up per writer for all the targets, not one per target. Only enqueues: a target that does not
        // read never slows this thread nor the send (its queue is cut at its bound).
        List<Outbound> starts = new ArrayList<>();
        FanOutSeam seam = this.seam;
        for (GatewayConnection connection : targets) {
            seam.delivering(connection);
            connection.deliver(frame, starts);
        }
        return starts;
    }

    @Override
    public boolean isOnline(String tenantId, String userId) {
        TenantPresence tenant = presence.get(tenantId);
        return tenant != null && tenant.isOnline(userId);
    }

    TenantPresence tenantPresence(String tenantId) {
        return presence.computeIfAbsent(tenantId, k -> new TenantPresence(k, relay));
    }

    /** Returns every tenant's presence held here. */
    java.util.Collection<TenantPresence> tenantPresences() {
        return presence.values();
    }

    /** Publishes the tenant's pending presence flips at the next batch. */
    void presenceChanged(TenantPresence tenant) {
        presenceFlusher.markDirty(tenant);
    }

    private Map<String, Set<GatewayConnection>> users(String tenantId) {
        return byUser.computeIfAbsent(tenantId, k -> new ConcurrentHashMap<>());
    }

    static String key(String tenantId, String id) {
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
