package dev.svc.chat.reference.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.EventPublisher;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
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
 * Carries room events between servers on one PostgreSQL database (and schema) through {@code LISTEN/NOTIFY}:
 * each event is delivered to this server's sockets at once and, in the order this server published them,
 * sent as a small JSON notification ({@code {node, tenant, event, roomId, members, payload}}) that every
 * other server delivers to its own sockets. Nothing else is needed between the servers. A notification is at
 * most 8,000 bytes, so larger events are not forwarded: the socket's client recovers them by {@code seq}
 * and {@code rev} like any loss (logged). Typing and presence stay on each server.
 */
public final class PgEventBus implements EventPublisher, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PgEventBus.class);
    private static final int MAX_NOTIFY_BYTES = 7_900;

    private final String nodeId = UUID.randomUUID().toString();
    private final EventPublisher local;
    private final ObjectMapper mapper;
    private final String channel;
    private final String jdbcUrl;
    private final Properties login;
    private final ExecutorService sender;
    private final Thread listener;
    private volatile boolean closed;
    private Connection sending;

    /**
     * Starts listening on the channel of {@code schema} (or of the default schema).
     *
     * @param local this server's fan-out
     * @param mapper the gateway's mapper, so that forwarded payloads read as local ones
     */
    public PgEventBus(EventPublisher local, ObjectMapper mapper, String jdbcUrl, String user, String password,
                      String schema) {
        this.local = local;
        this.mapper = mapper;
        this.jdbcUrl = jdbcUrl;
        this.login = new Properties();
        if (user != null) {
            login.setProperty("user", user);
        }
        if (password != null) {
            login.setProperty("password", password);
        }
        String name = "svc_events" + (schema != null ? "_" + schema : "");
        this.channel = name.length() > 63 ? name.substring(0, 63) : name;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(100_000),
                r -> daemon(r, "svc-ref-bus-send"));
        Connection listening;
        try {
            listening = DriverManager.getConnection(jdbcUrl, login);
            try (Statement st = listening.createStatement()) {
                st.execute("LISTEN \"" + channel + "\"");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot LISTEN on PostgreSQL: " + e.getMessage(), e);
        }
        this.listener = daemon(() -> listen(listening), "svc-ref-bus-listen");
        listener.start();
    }

    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload) {
        local.toRoomMembers(tenantId, room, event, payload);
        ObjectNode message = mapper.createObjectNode();
        message.put("node", nodeId);
        message.put("tenant", tenantId);
        message.put("event", event);
        message.put("roomId", room.id());
        message.set("members", mapper.valueToTree(room.memberIds()));
        message.set("payload", mapper.valueToTree(payload));
        forward(message);
    }

    @Override
    public void memberRemoved(String tenantId, String roomId, String userId) {
        local.memberRemoved(tenantId, roomId, userId);
        ObjectNode message = mapper.createObjectNode();
        message.put("node", nodeId);
        message.put("tenant", tenantId);
        message.put("removed", userId);
        message.put("roomId", roomId);
        forward(message);
    }

    private void forward(ObjectNode message) {
        String text = message.toString();
        if (text.length() > MAX_NOTIFY_BYTES) {
            LOG.warn("a {} event of {} characters is too large to forward to other nodes", message.path("event"),
                    text.length());
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
                try (PreparedStatement ps = sending.prepareStatement("SELECT pg_notify(?, ?)")) {
                    ps.setString(1, channel);
                    ps.setString(2, text);
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

    private void listen(Connection connection) {
        try {
            PGConnection pg = connection.unwrap(PGConnection.class);
            while (!closed) {
                PGNotification[] notifications = pg.getNotifications(250);
                if (notifications == null) {
                    continue;
                }
                for (PGNotification n : notifications) {
                    deliver(n.getParameter());
                }
            }
        } catch (SQLException e) {
            if (!closed) {
                LOG.error("the event bus stopped listening: {}", e.getMessage());
            }
        } finally {
            closeQuietly(connection);
        }
    }

    private void deliver(String text) {
        try {
            JsonNode message = mapper.readTree(text);
            if (nodeId.equals(message.path("node").asText())) {
                return;
            }
            String tenantId = message.path("tenant").asText();
            String roomId = message.path("roomId").asText();
            if (message.has("removed")) {
                local.memberRemoved(tenantId, roomId, message.path("removed").asText());
                return;
            }
            List<String> members = new ArrayList<>();
            message.path("members").forEach(m -> members.add(m.asText()));
            Room room = new Room(roomId, null, members, Instant.EPOCH, 0, null, 0);
            local.toRoomMembers(tenantId, room, message.path("event").asText(), message.path("payload"));
        } catch (RuntimeException | java.io.IOException e) {
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
