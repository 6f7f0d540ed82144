package dev.svc.chat.reference.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.gateway.ClusterRelay;
import dev.svc.chat.reference.gateway.RemoteEvents;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.EventPublisher;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries realtime events between servers on one PostgreSQL database (and schema) through {@code
 * LISTEN/NOTIFY}: room events (delivered to this server's sockets at once), this server's users' presence
 * changes and typing are, in the order they happened here, sent as a JSON notification ({@code {node,
 * tenant, ...}}) that every other server hands to its own sockets. Nothing else is needed between the
 * servers. A notification is at most 8,000 bytes: a larger event is stored in {@code bus_payloads} and the
 * notification carries its id (rows are deleted after {@link #PAYLOAD_TTL_MILLIS}).
 */
public final class PgEventBus implements EventPublisher, ClusterRelay, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PgEventBus.class);
    static final int MAX_NOTIFY_BYTES = 7_900;
    /** How long a stored large event is kept for the other nodes to read. */
    static final long PAYLOAD_TTL_MILLIS = 60_000;

    private final String nodeId;
    private final EventPublisher local;
    private final RemoteEvents remote;
    private final ObjectMapper mapper;
    private final String channel;
    private final String jdbcUrl;
    private final Properties login;
    private final ExecutorService sender;
    /** The pause before listening again after the listening connection was lost. */
    static final long RELISTEN_MILLIS = 500;
    /** How many times a LISTEN began: it changes when events may have been missed (see {@link #listenings()}). */
    private final java.util.concurrent.atomic.AtomicLong listenings = new java.util.concurrent.atomic.AtomicLong();
    private final Thread listener;
    private volatile boolean closed;
    private Connection sending;

    /**
     * Starts listening on the channel of {@code schema} (or of the default schema).
     *
     * @param nodeId this server's id in the cluster
     * @param local this server's fan-out
     * @param remote where other nodes' presence and typing go on this server
     * @param mapper the gateway's mapper, so that forwarded payloads read as local ones
     */
    public PgEventBus(String nodeId, EventPublisher local, RemoteEvents remote, ObjectMapper mapper, String jdbcUrl,
                      String user, String password, String schema) {
        this.nodeId = nodeId;
        this.local = local;
        this.remote = remote;
        this.mapper = mapper;
        this.jdbcUrl = jdbcUrl;
        this.login = new Properties();
        if (user != null) {
            login.setProperty("user", user);
        }
        if (password != null) {
            login.setProperty("password", password);
        }
        if (schema != null) {
            login.setProperty("currentSchema", schema); // where bus_payloads is
        }
        String name = "svc_events" + (schema != null ? "_" + schema : "");
        this.channel = name.length() > 63 ? name.substring(0, 63) : name;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(100_000),
                r -> daemon(r, "svc-ref-bus-send"));
        Connection listening;
        try {
            listening = openListening();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot LISTEN on PostgreSQL: " + e.getMessage(), e);
        }
        this.listener = daemon(() -> listen(listening), "svc-ref-bus-listen");
        listener.start();
    }

    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload) {
        local.toRoomMembers(tenantId, room, event, payload);
        Map<String, Object> message = envelope(tenantId);
        message.put("event", event);
        message.put("roomId", room.id());
        message.put("members", room.memberIds());
        message.put("payload", payload);
        forward(message);
    }

    @Override
    public void memberRemoved(String tenantId, String roomId, String userId) {
        local.memberRemoved(tenantId, roomId, userId);
        Map<String, Object> message = envelope(tenantId);
        message.put("removed", userId);
        message.put("roomId", roomId);
        forward(message);
    }

    @Override
    public void presence(String tenantId, String userId, boolean online, Instant at) {
        Map<String, Object> message = envelope(tenantId);
        message.put("presence", userId);
        message.put("online", online);
        message.put("at", at.toEpochMilli());
        forward(message);
    }

    @Override
    public void typing(String tenantId, String roomId, String userId, boolean isTyping) {
        Map<String, Object> message = envelope(tenantId);
        message.put("typing", userId);
        message.put("roomId", roomId);
        message.put("isTyping", isTyping);
        forward(message);
    }

    private Map<String, Object> envelope(String tenantId) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("node", nodeId);
        message.put("tenant", tenantId);
        return message;
    }

    /** Serialises the message once, here (the payload as the gateway's mapper writes it), and queues it. */
    private void forward(Map<String, Object> message) {
        String text;
        try {
            text = mapper.writeValueAsString(message);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            LOG.warn("cannot forward an event to other nodes: {}", e.getMessage());
            return;
        }
        try {
            sender.execute(() -> notifyOthers(text));
        } catch (RejectedExecutionException e) {
            if (!closed) {
                LOG.warn("the event bus is full; an event is not forwarded to other nodes");
            }
        }
    }

    private void notifyOthers(String text) {
        for (int attempt = 0; attempt < 2 && !closed; attempt++) {
            try {
                if (sending == null || sending.isClosed()) {
                    sending = DriverManager.getConnection(jdbcUrl, login);
                }
                String notification = utf8Length(text) <= MAX_NOTIFY_BYTES ? text : "{\"node\":\"" + nodeId
                        + "\",\"ref\":" + store(sending, text) + "}";
                try (PreparedStatement ps = sending.prepareStatement("SELECT pg_notify(?, ?)")) {
                    ps.setString(1, channel);
                    ps.setString(2, notification);
                    ps.execute();
                }
                return;
            } catch (SQLException e) {
                LOG.warn("cannot forward an event to other nodes: {}", e.getMessage());
                closeQuietly(sending);
                sending = null;
            }
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
    private static String load(Connection c, long id) throws SQLException {
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
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    private Connection openListening() throws SQLException {
        Connection connection = DriverManager.getConnection(jdbcUrl, login);
        try (Statement st = connection.createStatement()) {
            st.execute("LISTEN \"" + channel + "\"");
            listenings.incrementAndGet();
        } catch (SQLException e) {
            closeQuietly(connection);
            throw e;
        }
        return connection;
    }

    /**
     * Delivers other nodes' events until closed. A lost connection (a database restart, a terminated backend)
     * is opened again, every {@link #RELISTEN_MILLIS} until it works: what was notified meanwhile is not seen
     * here (clients recover room events by seq and rev).
     */
    private void listen(Connection first) {
        Connection connection = first;
        while (!closed) {
            try {
                PGConnection pg = connection.unwrap(PGConnection.class);
                while (!closed) {
                    PGNotification[] notifications = pg.getNotifications(250);
                    if (notifications != null) {
                        for (PGNotification n : notifications) {
                            deliver(connection, n.getParameter());
                        }
                    }
                }
            } catch (SQLException e) {
                if (!closed) {
                    LOG.warn("the event bus lost its connection ({}); listening again", e.getMessage());
                }
            } finally {
                closeQuietly(connection);
            }
            connection = relisten();
            if (connection == null) {
                return;
            }
        }
    }

    /**
     * Returns how many times this bus began to LISTEN: 1 once started, more after each lost connection, whose
     * gap may have dropped presence changes that the presence beat then reads again.
     */
    public long listenings() {
        return listenings.get();
    }

    /** Opens a listening connection again, retrying until it works; null once closed. */
    private Connection relisten() {
        while (!closed) {
            try {
                Thread.sleep(RELISTEN_MILLIS); // a pause between attempts, not a synchronisation
                Connection connection = openListening();
                if (closed) { // close() gave up waiting for this thread: leave no connection open behind it
                    closeQuietly(connection);
                    return null;
                }
                return connection;
            } catch (SQLException e) {
                LOG.warn("the event bus cannot listen yet: {}", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private void deliver(Connection connection, String text) {
        try {
            JsonNode message = mapper.readTree(text);
            if (nodeId.equals(message.path("node").asText())) {
                return;
            }
            if (message.has("ref")) {
                String stored = load(connection, message.path("ref").asLong());
                if (stored == null) {
                    LOG.warn("a large event from another node was gone before it was read");
                    return;
                }
                message = mapper.readTree(stored);
            }
            String tenantId = message.path("tenant").asText();
            String roomId = message.path("roomId").asText();
            String node = message.path("node").asText();
            if (message.has("presence")) {
                remote.presence(node, tenantId, message.path("presence").asText(), message.path("online").asBoolean(),
                        Instant.ofEpochMilli(message.path("at").asLong()));
                return;
            }
            if (message.has("typing")) {
                remote.typing(tenantId, roomId, message.path("typing").asText(), message.path("isTyping").asBoolean());
                return;
            }
            if (message.has("removed")) {
                local.memberRemoved(tenantId, roomId, message.path("removed").asText());
                return;
            }
            List<String> members = new ArrayList<>();
            message.path("members").forEach(m -> members.add(m.asText()));
            Room room = new Room(roomId, null, members, Instant.EPOCH, 0, null, 0);
            local.toRoomMembers(tenantId, room, message.path("event").asText(), message.path("payload"));
        } catch (RuntimeException | java.io.IOException | SQLException e) {
            LOG.warn("dropped an event from another node: {}", e.toString());
        }
    }

    /** Stops listening and forwarding. */
    @Override
    public void close() {
        closed = true;
        sender.shutdown();
        try {
            sender.awaitTermination(2, TimeUnit.SECONDS);
            listener.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sender.shutdownNow();
        closeQuietly(sending);
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
