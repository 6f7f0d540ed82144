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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is online over every server on one database: this server's own connections and the other nodes'
 * users as their changes arrive on the event bus ({@link RemoteEvents}). Each beat (every {@link #BEAT})
 * stores this server's beat and its online users ({@code nodes}, {@code node_presence}) and reads which
 * servers are alive: a server whose beat is older than {@link #DEAD_AFTER} is dead and its users stop
 * counting (an offline {@code tenant-presence} for those online nowhere else), and a server seen for the
 * first time has its listed users counted (the changes it sent before this server listened).
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
    private final Database db;
    private final Clock clock;
    private final ScheduledExecutorService beats;
    private Set<String> written = new HashSet<>();
    private Set<String> liveNodes = new HashSet<>();

    /**
     * Starts beating for this server (node {@code nodeId}), whose own connections {@code local} counts and
     * which learns of the other nodes' users through {@code remote}.
     */
    public ClusterPresence(String nodeId, FanOut local, RemoteEvents remote, Database db, Clock clock) {
        this.nodeId = nodeId;
        this.local = local;
        this.remote = remote;
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
     * Stores this server's beat and online users, reads which servers are alive (and the users of those
     * seen for the first time), forgets dead ones.
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
        Set<String> alive = new HashSet<>();
        Map<String, Set<String>> seeded = db.tx(c -> {
            Set<String> previous = written;
            try (PreparedStatement ps = c.prepareStatement("UPDATE nodes SET seen_at = ? WHERE node_id = ?")) {
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
                        bindKey(delete, key).executeUpdate();
                    }
                }
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO node_presence (node_id, tenant_id, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
                for (String key : online) {
                    if (!previous.contains(key)) {
                        bindKey(insert, key).executeUpdate();
                    }
                }
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
            try (PreparedStatement ps = c.prepareStatement("SELECT node_id FROM nodes WHERE node_id <> ?")) {
                ps.setString(1, nodeId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        alive.add(rs.getString(1));
                    }
                }
            }
            // node -> "tenant NUL user" of the nodes seen for the first time
            Map<String, Set<String>> firstSeen = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT node_id, tenant_id, user_id FROM node_presence"
                    + " WHERE node_id <> ?")) {
                ps.setString(1, nodeId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String node = rs.getString(1);
                        if (alive.contains(node) && !known.contains(node)) {
                            firstSeen.computeIfAbsent(node, k -> new HashSet<>())
                                    .add(rs.getString(2) + '\u0000' + rs.getString(3));
                        }
                    }
                }
            }
            return firstSeen;
        });
        written = online;
        liveNodes = alive;
        Instant at = Instant.ofEpochMilli(now);
        for (String gone : known) {
            if (!alive.contains(gone)) {
                remote.nodeGone(gone, at);
            }
        }
        for (Map.Entry<String, Set<String>> node : seeded.entrySet()) {
            for (String key : node.getValue()) {
                int nul = key.indexOf('\u0000');
                remote.presence(node.getKey(), key.substring(0, nul), key.substring(nul + 1), true, at);
            }
        }
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
