package dev.svc.chat.reference.cluster;

import dev.svc.chat.reference.gateway.FanOut;
import dev.svc.chat.reference.gateway.RemoteEvents;
import dev.svc.chat.reference.service.PresenceDirectory;
import dev.svc.chat.reference.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is online over every server on one database: this server's own connections and the other nodes'
 * users as their changes arrive on the event bus ({@link RemoteEvents}). Each beat (every {@link #BEAT})
 * stores this server's beat (a counter in {@code nodes}) and the changes of its online users
 * ({@code node_presence}), and reads which servers are alive: a server whose beat is older than
 * {@link #DEAD_AFTER} is dead and its users stop counting (an offline {@code tenant-presence} for those
 * online nowhere else).
 *
 * <p>What the bus told before this server listened (or while its listening connection was lost) is read
 * from the other node's list instead. A list read at once may be up to a beat old, so it only adds users;
 * the node's list is read again once it beat twice more: that beat began after this server listened, so
 * its list is newer than anything the bus told before, and it replaces the node's users, except those the
 * bus told about since ({@link RemoteEvents#sync}).
 */
public final class ClusterPresence implements PresenceDirectory, AutoCloseable {

    /** How often a server beats and syncs. */
    public static final Duration BEAT = Duration.ofSeconds(1);
    /** How old a beat may be before its server counts as dead. */
    public static final Duration DEAD_AFTER = Duration.ofSeconds(6);
    private static final Logger LOG = LoggerFactory.getLogger(ClusterPresence.class);

    private final String nodeId;
    private final FanOut local;
    private final RemoteEvents remote;
    private final LongSupplier listenings;
    private final Runnable nodeGone;
    private final Database db;
    private final Clock clock;
    /** Node -> the beat count at which its list is read again, and the mark taken before it was set. */
    private final Map<String, long[]> resyncs = new HashMap<>();
    private long listened;
    private final ScheduledExecutorService beats;
    private Set<String> written = new HashSet<>();
    private Set<String> liveNodes = Set.of();

    /**
     * Starts beating for this server (node {@code nodeId}), whose own connections {@code local} counts and
     * which learns of the other nodes' users through {@code remote}, from a bus that began to listen
     * {@code listenings} times (a change means events may have been missed); {@code nodeGone} runs when a node
     * is found dead.
     */
    public ClusterPresence(String nodeId, FanOut local, RemoteEvents remote, LongSupplier listenings,
            Runnable nodeGone, Database db, Clock clock) {
        this.nodeId = nodeId;
        this.nodeGone = nodeGone;
        this.local = local;
        this.remote = remote;
        this.listenings = listenings;
        this.listened = listenings.getAsLong(); // nodes are first seen at the first beat anyway
        this.db = db;
        this.clock = clock;
        this.beats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "svc-ref-presence-beat");
            t.setDaemon(true);
            return t;
        });
        beats.scheduleWithFixedDelay(this::beatQuietly, 0, BEAT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public List<String> onlineUsers(String tenantId) {
        return remote.onlineUsers(tenantId);
    }

    @Override
    public boolean isOnline(String tenantId, String userId) {
        return remote.isOnline(tenantId, userId);
    }

    private void beatQuietly() {
        try {
            beat();
        } catch (RuntimeException e) {
            LOG.warn("presence beat failed: {}", e.getMessage());
        }
    }

    /**
     * Stores this server's beat and the changes of its online users since the last beat (in two batches),
     * reads which servers are alive and the users of those seen for the first time only, forgets dead ones.
     */
    void beat() {
        long now = clock.millis();
        Set<String> online = new HashSet<>();
        for (String tenantId : local.tenantsWithPresence()) {
            for (String userId : local.onlineUsers(tenantId)) {
                online.add(tenantId + '\u0000' + userId);
            }
        }
        Set<String> known = liveNodes;
        long listening = listenings.getAsLong();
        boolean relistened = listening != listened;
        long mark = remote.mark();
        Map<String, Long> alive = new HashMap<>();
        Map<String, Set<String>> firstSeen = new HashMap<>();
        Map<String, Set<String>> reread = new HashMap<>();
        db.tx(c -> {
            Set<String> previous = written;
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE nodes SET seen_at = ?, beats = beats + 1 WHERE node_id = ?")) {
                ps.setLong(1, now);
                ps.setString(2, nodeId);
                if (ps.executeUpdate() == 0) {
                    // first beat, or declared dead by another node (which deleted the rows): list every user
                    previous = Set.of();
                    try (PreparedStatement insert = c.prepareStatement(
                            "INSERT INTO nodes (node_id, seen_at) VALUES (?, ?)")) {
                        insert.setString(1, nodeId);
                        insert.setLong(2, now);
                        insert.executeUpdate();
                    }
                }
            }
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM node_presence WHERE node_id = ? AND tenant_id = ? AND user_id = ?")) {
                for (String key : previous) {
                    if (!online.contains(key)) {
                        bindKey(delete, key).addBatch();
                    }
                }
                delete.executeBatch();
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO node_presence (node_id, tenant_id, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
                for (String key : online) {
                    if (!previous.contains(key)) {
                        bindKey(insert, key).addBatch();
                    }
                }
                insert.executeBatch();
            }
            long deadBefore = now - DEAD_AFTER.toMillis();
            try (PreparedStatement dead = c.prepareStatement("DELETE FROM node_presence WHERE node_id IN"
                    + " (SELECT node_id FROM nodes WHERE seen_at < ?)")) {
                dead.setLong(1, deadBefore);
                dead.executeUpdate();
            }
            try (PreparedStatement dead = c.prepareStatement("DELETE FROM nodes WHERE seen_at < ?")) {
                dead.setLong(1, deadBefore);
                dead.executeUpdate();
            }
            alive.clear();
            firstSeen.clear();
            reread.clear();
            try (PreparedStatement ps = c.prepareStatement("SELECT node_id, beats FROM nodes WHERE node_id <> ?")) {
                ps.setString(1, nodeId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        alive.put(rs.getString(1), rs.getLong(2));
                    }
                }
            }
            // the lists of the nodes seen for the first time, and of those due to be read again
            try (PreparedStatement ps = c.prepareStatement("SELECT tenant_id, user_id FROM node_presence"
                    + " WHERE node_id = ?")) {
                for (Map.Entry<String, Long> node : alive.entrySet()) {
                    long[] resync = resyncs.get(node.getKey());
                    Map<String, Set<String>> into = !known.contains(node.getKey()) ? firstSeen
                            : resync != null && node.getValue() >= resync[0] ? reread : null;
                    if (into != null) {
                        into.put(node.getKey(), readUsers(ps, node.getKey()));
                    }
                }
            }
            return null;
        });
        written = online;
        liveNodes = alive.keySet();
        listened = listening;
        Instant at = Instant.ofEpochMilli(now);
        for (String gone : known) {
            if (!alive.containsKey(gone)) {
                resyncs.remove(gone);
                remote.nodeGone(gone, at);
                nodeGone.run();
            }
        }
        for (Map.Entry<String, Set<String>> node : reread.entrySet()) {
            remote.sync(node.getKey(), byTenant(node.getValue()), resyncs.remove(node.getKey())[1], false, at);
        }
        for (Map.Entry<String, Set<String>> node : firstSeen.entrySet()) {
            remote.sync(node.getKey(), byTenant(node.getValue()), mark, true, at);
        }
        for (Map.Entry<String, Long> node : alive.entrySet()) {
            if (relistened || firstSeen.containsKey(node.getKey())) {
                resyncs.put(node.getKey(), new long[] {node.getValue() + 2, mark});
            }
        }
        if (resyncs.isEmpty()) {
            remote.stopRecording();
        }
    }

    private static Set<String> readUsers(PreparedStatement ps, String node) throws java.sql.SQLException {
        Set<String> users = new HashSet<>();
        ps.setString(1, node);
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                users.add(rs.getString(1) + '\u0000' + rs.getString(2));
            }
        }
        return users;
    }

    private static Map<String, Set<String>> byTenant(Set<String> keys) {
        Map<String, Set<String>> tenants = new HashMap<>();
        for (String key : keys) {
            int nul = key.indexOf('\u0000');
            tenants.computeIfAbsent(key.substring(0, nul), k -> new HashSet<>()).add(key.substring(nul + 1));
        }
        return tenants;
    }

    private PreparedStatement bindKey(PreparedStatement ps, String key) throws java.sql.SQLException {
        int nul = key.indexOf('\u0000');
        ps.setString(1, nodeId);
        ps.setString(2, key.substring(0, nul));
        ps.setString(3, key.substring(nul + 1));
        return ps;
    }

    /** Stops beating and removes this server's rows, so its users stop counting at once. */
    @Override
    public void close() {
        beats.shutdownNow();
        try {
            beats.awaitTermination(2, TimeUnit.SECONDS);
            db.tx(c -> {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM node_presence WHERE node_id = ?")) {
                    ps.setString(1, nodeId);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM nodes WHERE node_id = ?")) {
                    ps.setString(1, nodeId);
                    ps.executeUpdate();
                }
                return null;
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("could not remove this server's presence: {}", e.getMessage());
        }
    }
}
