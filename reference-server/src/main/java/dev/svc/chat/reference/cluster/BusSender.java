package dev.svc.chat.reference.cluster;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends this node's events to the other nodes as {@code NOTIFY}, in the order they were queued, on a thread and
 * connection of its own. A notification that fails is tried again every {@link #RETRY_MILLIS} until it is
 * sent (or the node closes), so that no room event is lost to a dropped connection. When {@link #CAPACITY}
 * wait, a message event (one with a room revision), a receipt, a call event or a member removal is not queued
 * but remembered per room, and its room is announced later ({@code {node, tenant, roomId, catchUp: rev}}, rev 0
 * for the others) so that the other nodes read what they missed from the database ({@link RoomCatchUp});
 * presence and typing that do not fit are dropped and logged. A notification is at most 8,000 bytes: a larger
 * event is stored in {@code bus_payloads} and the notification carries its id, and its room and revision to
 * catch up from if it is gone.
 */
final class BusSender implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BusSender.class);
    /** Notifications waiting at most (chosen). */
    static final int CAPACITY = 100_000;
    /** The pause between two attempts of a notification that failed. */
    static final long RETRY_MILLIS = 500;
    static final int MAX_NOTIFY_BYTES = 7_900;
    /** How long a stored large event is kept for the other nodes to read. */
    static final long PAYLOAD_TTL_MILLIS = 60_000;

    private final String nodeId;
    private final String channel;
    private final String jdbcUrl;
    private final Properties login;
    private final BusFaults faults;
    private final BlockingQueue<Outgoing> queue;
    /** Rooms whose events that catch up did not fit in the queue: "tenant NUL room" -> the highest revision. */
    private final Map<String, Outgoing> overflow = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean closed;
    private Connection sending;

    /** A queued notification, with the room revision it carries (0 for an event without one). */
    private record Outgoing(String text, String tenantId, String roomId, long rev) {
    }

    BusSender(String nodeId, String channel, String jdbcUrl, Properties login, BusFaults faults) {
        this.nodeId = nodeId;
        this.channel = channel;
        this.jdbcUrl = jdbcUrl;
        this.login = login;
        this.faults = faults;
        this.queue = new LinkedBlockingQueue<>(faults.queueCapacity());
        this.thread = new Thread(this::run, "svc-ref-bus-send");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues {@code text}, an event of room {@code roomId} at revision {@code rev} (0 when it has none); when the
     * queue is full, the room of an event that {@code catchesUp} from the database is announced instead.
     */
    void send(String text, String tenantId, String roomId, long rev, boolean catchesUp) {
        if (closed) {
            return;
        }
        if (queue.offer(new Outgoing(text, tenantId, roomId, rev))) {
            return;
        }
        if (catchesUp) {
            overflow.merge(tenantId + '\u0000' + roomId, new Outgoing(announcement(tenantId, roomId, rev),
                    tenantId, roomId, rev), (a, b) -> a.rev() >= b.rev() ? a : b);
        } else {
            LOG.warn("the event bus is full; a presence change or typing is not forwarded to other nodes");
        }
    }

    private String announcement(String tenantId, String roomId, long rev) {
        return "{\"node\":\"" + nodeId + "\",\"tenant\":" + quote(tenantId) + ",\"roomId\":" + quote(roomId)
                + ",\"catchUp\":" + rev + "}";
    }

    private void run() {
        while (!closed || !queue.isEmpty()) {
            Outgoing next;
            try {
                next = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (next != null) {
                sendUntilSent(next);
            }
            // announced after what was queued before them, so a room's announcement follows its queued events
            for (Iterator<Outgoing> it = overflow.values().iterator(); it.hasNext() && !closed; ) {
                Outgoing announced = it.next();
                it.remove();
                sendUntilSent(announced);
            }
        }
    }

    private void sendUntilSent(Outgoing outgoing) {
        boolean failed = false;
        while (!closed || !failed) {
            try {
                notifyOthers(outgoing);
                if (failed) {
                    LOG.info("the event bus sends again");
                }
                return;
            } catch (SQLException e) {
                if (!failed) {
                    LOG.warn("cannot forward an event to other nodes ({}); trying again every {} ms", e.getMessage(),
                            RETRY_MILLIS);
                }
                failed = true;
                closeQuietly(sending);
                sending = null;
                if (closed) {
                    return;
                }
                try {
                    Thread.sleep(RETRY_MILLIS); // a pause between attempts, not a synchronisation
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void notifyOthers(Outgoing outgoing) throws SQLException {
        if (sending == null || sending.isClosed()) {
            sending = DriverManager.getConnection(jdbcUrl, login);
        }
        faults.beforeNotify();
        String text = outgoing.text();
        String notification = text;
        if (utf8Length(text) > MAX_NOTIFY_BYTES) {
            notification = "{\"node\":\"" + nodeId + "\",\"ref\":" + store(sending, text)
                    + (outgoing.rev() > 0 ? ",\"tenant\":" + quote(outgoing.tenantId()) + ",\"roomId\":"
                    + quote(outgoing.roomId()) + ",\"rev\":" + outgoing.rev() : "") + "}";
        }
        try (PreparedStatement ps = sending.prepareStatement("SELECT pg_notify(?, ?)")) {
            ps.setString(1, channel);
            ps.setString(2, notification);
            ps.execute();
        }
    }

    /** Stores a large event for the other nodes (and deletes old ones); returns its id. */
    private static long store(Connection c, String text) throws SQLException {
        long now = System.currentTimeMillis();
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM bus_payloads WHERE created_at < ?")) {
            ps.setLong(1, now - PAYLOAD_TTL_MILLIS);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO bus_payloads (created_at, body) VALUES (?, ?) RETURNING id")) {
            ps.setLong(1, now);
            ps.setString(2, text);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Reads a stored large event, or null if it is gone (older than the time to live). */
    static String load(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT body FROM bus_payloads WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    static int utf8Length(String text) {
        if (text.length() * 3 <= MAX_NOTIFY_BYTES) {
            return text.length();
        }
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** A JSON string of an id (tenant and room ids are letters, digits and a few marks; quoted to be safe). */
    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Sends what is queued for up to two seconds more, then stops. */
    @Override
    public void close() {
        closed = true;
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.interrupt();
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(sending);
    }

    static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }
}
