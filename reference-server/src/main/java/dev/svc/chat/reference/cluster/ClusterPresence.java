package dev.svc.chat.reference.cluster;

import dev.svc.chat.reference.gateway.FanOut;
import dev.svc.chat.reference.service.PresenceDirectory;
import dev.svc.chat.reference.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is online over every server on one database: this server's own connections (at once) and, as of the
 * last beat (every {@link #BEAT}), the users other live servers list. Each beat stores this server's beat
 * and its online users ({@code nodes}, {@code node_presence}), reads the others', and forgets the servers
 * whose beat is older than {@link #DEAD_AFTER}: a server that died stops counting within that time.
 * {@code tenant-presence} events stay per server.
 */
public final class ClusterPresence implements PresenceDirectory, AutoCloseable {

    /** How often a server beats and syncs. */
    public static final Duration BEAT = Duration.ofSeconds(1);
    /** How old a beat may be before its server counts as dead. */
    public static final Duration DEAD_AFTER = Duration.ofSeconds(6);
    private static final Logger LOG = LoggerFactory.getLogger(ClusterPresence.class);

    private final String nodeId = UUID.randomUUID().toString();
    private final FanOut local;
    private final Database db;
    private final Clock clock;
    private final ScheduledExecutorService beats;
    private Set<String> written = new HashSet<>();
    private volatile Map<String, Set<String>> remote = Map.of();

    /** Starts beating for this server, whose own connections {@code local} counts. */
    public ClusterPresence(FanOut local, Database db, Clock clock) {
        this.local = local;
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
        TreeSet<String> users = new TreeSet<>(local.onlineUsers(tenantId));
        users.addAll(remote.getOrDefault(tenantId, Set.of()));
        return new ArrayList<>(users);
    }

    @Override
    public boolean isOnline(String tenantId, String userId) {
        return local.isOnline(tenantId, userId) || remote.getOrDefault(tenantId, Set.of()).contains(userId);
    }

    private void beatQuietly() {
        try {
            beat();
        } catch (RuntimeException e) {
            LOG.warn("presence beat failed: {}", e.getMessage());
        }
    }

    /** Stores this server's beat and online users, reads the other live servers', forgets dead ones. */
    void beat() {
        long now = clock.millis();
        Set<String> online = new HashSet<>();
        for (String tenantId : local.tenantsWithPresence()) {
            for (String userId : local.onlineUsers(tenantId)) {
                online.add(tenantId + '\u0000' + userId);
            }
        }
        Set<String> previous = written;
        remote = db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE nodes SET seen_at = ? WHERE node_id = ?")) {
                ps.setLong(1, now);
                ps.setString(2, nodeId);
                if (ps.executeUpdate() == 0) {
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
            Map<String, Set<String>> others = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT p.tenant_id, p.user_id FROM node_presence p"
                    + " JOIN nodes n ON n.node_id = p.node_id WHERE p.node_id <> ? AND n.seen_at >= ?")) {
                ps.setString(1, nodeId);
                ps.setLong(2, deadBefore);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        others.computeIfAbsent(rs.getString(1), k -> new HashSet<>()).add(rs.getString(2));
                    }
                }
            }
            return others;
        });
        written = online;
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
