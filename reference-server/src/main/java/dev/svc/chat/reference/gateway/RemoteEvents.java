package dev.svc.chat.reference.gateway;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What other nodes of a cluster tell this one about their connections, handed to this node's sockets by the
 * same rules as its own: a user is online while they have a connection on any live node ({@code
 * tenant-presence} flips when the first opens anywhere and after the last closes everywhere, or its node
 * dies), and {@code typing} goes to this node's connections that joined the room, never the typer's own.
 */
public final class RemoteEvents {

    private final FanOut fanOut;
    /** Orders what the bus told against when a snapshot was asked for: one tick per event or mark. */
    private final AtomicLong ticks = new AtomicLong();
    private volatile boolean recording;
    /** While recording: node -> "tenant NUL user" -> the tick its latest presence event arrived at. */
    private final Map<String, Map<String, Long>> heard = new ConcurrentHashMap<>();

    /** Feeds {@code fanOut}, this node's fan-out. */
    public RemoteEvents(FanOut fanOut) {
        this.fanOut = fanOut;
    }

    /**
     * Returns which rooms this node's token connections have joined: "tenant NUL room" -> their users (a
     * snapshot), for a cluster to check against the rooms' members in the database (a removal its bus lost).
     */
    public Map<String, Set<String>> joinedRooms() {
        return fanOut.joinedByUsers();
    }

    /** {@code userId}'s first connection on node {@code nodeId} opened ({@code online}) or its last closed. */
    public void presence(String nodeId, String tenantId, String userId, boolean online, Instant at) {
        if (recording) {
            heard.computeIfAbsent(nodeId, k -> new ConcurrentHashMap<>())
                    .put(tenantId + '\u0000' + userId, ticks.incrementAndGet());
        }
        TenantPresence tenant = fanOut.tenantPresence(tenantId);
        if (online ? tenant.remoteOpened(nodeId, userId, at) : tenant.remoteClosed(nodeId, userId, at)) {
            fanOut.presenceChanged(tenant);
        }
    }

    /**
     * Starts noting which users the bus tells about, and returns a mark: a snapshot of a node's users read
     * after this call is older than what the bus told about a user after the mark (see {@link #sync}).
     */
    public long mark() {
        recording = true;
        return ticks.incrementAndGet();
    }

    /** Stops noting (no {@link #sync} is awaited). */
    public void stopRecording() {
        recording = false;
        heard.clear();
    }

    /**
     * Makes node {@code nodeId}'s users those of {@code snapshot} (tenant -> users), read from the database
     * after {@code mark}, except the users the bus told about since the mark, whose events are as new or newer.
     * With {@code addOnly} users missing from the snapshot are kept.
     */
    public void sync(String nodeId, Map<String, Set<String>> snapshot, long mark, boolean addOnly, Instant at) {
        Map<String, Long> told = heard.getOrDefault(nodeId, Map.of());
        Set<String> tenants = new HashSet<>(snapshot.keySet());
        if (!addOnly) {
            for (TenantPresence tenant : fanOut.tenantPresences()) {
                tenants.add(tenant.tenantId());
            }
        }
        for (String tenantId : tenants) {
            TenantPresence tenant = fanOut.tenantPresence(tenantId);
            Set<String> users = snapshot.getOrDefault(tenantId, Set.of());
            boolean flipped = false;
            if (!addOnly) {
                for (String userId : tenant.remoteUsersOn(nodeId)) {
                    if (!users.contains(userId) && told.getOrDefault(tenantId + '\u0000' + userId, 0L) < mark) {
                        flipped |= tenant.remoteClosed(nodeId, userId, at);
                    }
                }
            }
            for (String userId : users) {
                if (told.getOrDefault(tenantId + '\u0000' + userId, 0L) < mark) {
                    flipped |= tenant.remoteOpened(nodeId, userId, at);
                }
            }
            if (flipped) {
                fanOut.presenceChanged(tenant);
            }
        }
    }

    /** Node {@code nodeId} died or left: its users stop counting. */
    public void nodeGone(String nodeId, Instant at) {
        for (TenantPresence tenant : fanOut.tenantPresences()) {
            if (tenant.nodeGone(nodeId, at)) {
                fanOut.presenceChanged(tenant);
            }
        }
    }

    /** A user on another node typed in a room. */
    public void typing(String tenantId, String roomId, String userId, boolean isTyping) {
        fanOut.deliverTyping(tenantId, roomId, userId, isTyping);
    }

    /** Returns the users of the tenant online on this node or another live one, sorted. */
    public List<String> onlineUsers(String tenantId) {
        return fanOut.tenantPresence(tenantId).onlineAnywhere();
    }

    /** Returns whether the user is online on this node or another live one. */
    public boolean isOnline(String tenantId, String userId) {
        return fanOut.tenantPresence(tenantId).isOnlineAnywhere(userId);
    }
}
