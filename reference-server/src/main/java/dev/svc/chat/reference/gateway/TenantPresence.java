package dev.svc.chat.reference.gateway;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One tenant's presence: each user's count of token connections, the token connections to tell, and the
 * flips not yet published. Flips are published in batches ({@link PresenceFlusher}): within a batch a user
 * appears once with their latest state, and a user who went offline and back (a reconnect) is not
 * announced at all to connections that never saw the difference. A flip to offline waits one batch
 * interval before it is published, so a reconnect within that time cancels it. All state is guarded by this object.
 *
 * <p>Connections and flips share one sequence, so a batch tells each connection what it can have missed:
 * a connection registered before the user's first flip of the batch knows the published state and hears
 * of a net change only; one registered between the flips (its {@code GET /v1/presence} may have seen a
 * state in between) hears the latest state; one registered after the last flip knows it already.
 *
 * <p>On a cluster, a user is online while they have a connection here or on another live node: the other
 * nodes' users ({@link #remoteOpened}, {@link #remoteClosed}, {@link #nodeGone}) count like connections for
 * the flips, while {@link #onlineUsers()} and {@link #isOnline} stay this node's own (what it announces to
 * the others). This node's own first and last connection of a user go to the {@link ClusterRelay}, in order.
 */
final class TenantPresence {

    /** A user's flips within one batch. */
    private record Flips(boolean publishedOnline, boolean online, Instant at, long firstSeq, long lastSeq,
                         long flippedAtNanos) {
    }

    /** A published change: the contract's {@code {userId, online, at}} and who is to hear it. */
    record Change(String userId, boolean online, Instant at, boolean publishedOnline, long firstSeq, long lastSeq) {

        /** Returns whether a connection registered at {@code registeredSeq} is to hear this change. */
        boolean concerns(long registeredSeq) {
            return registeredSeq < lastSeq && (registeredSeq > firstSeq || online != publishedOnline);
        }
    }

    /** One batch: the changes, and the connections to tell with the sequence of their registration. */
    record Batch(List<Change> changes, Map<GatewayConnection, Long> connections) {
    }

    private final String tenantId;
    private final ClusterRelay relay;
    private final Map<String, Integer> counts = new HashMap<>();
    // userId -> the other nodes where the user is online
    private final Map<String, Set<String>> remote = new HashMap<>();
    private final Map<GatewayConnection, Long> connections = new HashMap<>();
    private final LinkedHashMap<String, Flips> pending = new LinkedHashMap<>();
    private long seq;

    TenantPresence(String tenantId, ClusterRelay relay) {
        this.tenantId = tenantId;
        this.relay = relay;
    }

    /** Counts a connection of {@code userId}; returns true if that made the user online (a flip). */
    synchronized boolean opened(String userId, Instant at) {
        if (counts.merge(userId, 1, Integer::sum) != 1) {
            return false;
        }
        relay.presence(tenantId, userId, true, at);
        if (remote.containsKey(userId)) {
            return false;
        }
        flip(userId, true, at);
        return true;
    }

    /** Uncounts a connection of {@code userId}; returns true if it was their last (a flip to offline). */
    synchronized boolean closed(String userId, Instant at) {
        Integer n = counts.get(userId);
        if (n == null) {
            return false;
        }
        if (n > 1) {
            counts.put(userId, n - 1);
            return false;
        }
        counts.remove(userId);
        relay.presence(tenantId, userId, false, at);
        if (remote.containsKey(userId)) {
            return false;
        }
        flip(userId, false, at);
        return true;
    }

    /** Counts {@code userId} online on another node; returns true if that made the user online (a flip). */
    synchronized boolean remoteOpened(String nodeId, String userId, Instant at) {
        Set<String> nodes = remote.computeIfAbsent(userId, k -> new java.util.HashSet<>());
        if (!nodes.add(nodeId) || nodes.size() > 1 || counts.containsKey(userId)) {
            return false;
        }
        flip(userId, true, at);
        return true;
    }

    /** Uncounts {@code userId} on another node; returns true if that made the user offline (a flip). */
    synchronized boolean remoteClosed(String nodeId, String userId, Instant at) {
        Set<String> nodes = remote.get(userId);
        if (nodes == null || !nodes.remove(nodeId) || !nodes.isEmpty()) {
            return false;
        }
        remote.remove(userId);
        if (counts.containsKey(userId)) {
            return false;
        }
        flip(userId, false, at);
        return true;
    }

    /** Returns the tenant. */
    String tenantId() {
        return tenantId;
    }

    /** Returns the users counted online on another node {@code nodeId}. */
    synchronized List<String> remoteUsersOn(String nodeId) {
        List<String> users = new java.util.ArrayList<>();
        for (Map.Entry<String, Set<String>> e : remote.entrySet()) {
            if (e.getValue().contains(nodeId)) {
                users.add(e.getKey());
            }
        }
        return users;
    }

    /** Uncounts every user of a node that died or left; returns true if any became offline. */
    synchronized boolean nodeGone(String nodeId, Instant at) {
        boolean flipped = false;
        for (String userId : List.copyOf(remote.keySet())) {
            flipped |= remoteClosed(nodeId, userId, at);
        }
        return flipped;
    }

    /** Returns the users online here or on another live node, sorted. */
    synchronized List<String> onlineAnywhere() {
        TreeSet<String> users = new TreeSet<>(counts.keySet());
        users.addAll(remote.keySet());
        return List.copyOf(users);
    }

    /** Returns whether the user is online here or on another live node. */
    synchronized boolean isOnlineAnywhere(String userId) {
        return counts.containsKey(userId) || remote.containsKey(userId);
    }

    /** Adds a token connection to tell of later flips. */
    synchronized void register(GatewayConnection connection) {
        connections.put(connection, ++seq);
    }

    /** Removes a token connection. */
    synchronized void unregister(GatewayConnection connection) {
        connections.remove(connection);
    }

    /** Returns the online users, sorted. */
    synchronized List<String> onlineUsers() {
        return List.copyOf(new TreeSet<>(counts.keySet()));
    }

    /** Returns whether the user has at least one token connection. */
    synchronized boolean isOnline(String userId) {
        return counts.containsKey(userId);
    }

    /** Returns the token connections and online users held (bookkeeping, for tests and diagnostics). */
    synchronized int heldEntries() {
        return connections.size() + counts.size() + remote.size();
    }

    /**
     * Takes the pending flips as a batch, except flips to offline younger than {@code offlineGraceNanos}: a
     * client that lost its connection usually reconnects within moments, and then nobody needs to hear of
     * it. Returns null when nothing is ready.
     */
    synchronized Batch drain(long nowNanos, long offlineGraceNanos) {
        List<Change> changes = new ArrayList<>(pending.size());
        for (Iterator<Map.Entry<String, Flips>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Flips> e = it.next();
            Flips f = e.getValue();
            if (!f.online() && nowNanos - f.flippedAtNanos() < offlineGraceNanos) {
                continue;
            }
            changes.add(new Change(e.getKey(), f.online(), f.at(), f.publishedOnline(), f.firstSeq(), f.lastSeq()));
            it.remove();
        }
        return changes.isEmpty() ? null : new Batch(changes, new HashMap<>(connections));
    }

    /** Returns whether flips are still pending (held back by the offline grace). */
    synchronized boolean hasPending() {
        return !pending.isEmpty();
    }

    private void flip(String userId, boolean online, Instant at) {
        long now = ++seq;
        long nanos = System.nanoTime();
        Flips old = pending.get(userId);
        pending.put(userId, old == null
                ? new Flips(!online, online, at, now, now, nanos)
                : new Flips(old.publishedOnline(), online, at, old.firstSeq(), now, nanos));
    }
}
