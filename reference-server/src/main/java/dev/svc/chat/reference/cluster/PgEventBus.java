package dev.svc.chat.reference.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.gateway.ClusterRelay;
import dev.svc.chat.reference.gateway.RemoteEvents;
import dev.svc.chat.reference.model.Call;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.Store;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries realtime events between servers on one PostgreSQL database (and schema) through {@code
 * LISTEN/NOTIFY}: room events (delivered to this server's sockets at once), this server's users' presence
 * changes and typing are, in the order they happened here, sent as a JSON notification ({@code {node,
 * tenant, ...}}, see {@link BusSender}) that every other server hands to its own sockets. Nothing else is
 * needed between the servers.
 *
 * <p>Message events are complete across nodes: each carries its room's revision, and every way the bus can
 * lose one ends in a catch-up from the database by revision ({@link RoomCatchUp}), with each revision handed
 * to the sockets once ({@link RoomRevisions}): a notification that fails is sent again until it goes; one that
 * does not fit in the queue makes its room announced; after the listening connection was lost this node reads
 * every room that moved while it did not listen, before it reads notifications again; when another node dies,
 * every room that moved; and a revision that stays missing below one that arrived (a hole) after
 * {@link RoomRevisions#HOLE_GRACE_NANOS}. Receipts are complete the same way, by their {@code seq}
 * ({@link ReceiptCatchUp}), call events by their call's version ({@link CallCatchUp}), and member removals by
 * the rooms' members ({@link MemberCatchUp}). Typing is not: it is gone when it is late, and a lost one is
 * lost. All of this runs on the listening thread, between notifications.
 */
public final class PgEventBus implements EventPublisher, ClusterRelay, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PgEventBus.class);
    /** The pause before listening again after the listening connection was lost. */
    static final long RELISTEN_MILLIS = 500;

    private final String nodeId;
    private final EventPublisher local;
    private final RemoteEvents remote;
    private final ObjectMapper mapper;
    private final String channel;
    private final String jdbcUrl;
    private final Properties login;
    private final BusFaults faults;
    private final BusSender sender;
    private final RoomRevisions revisions = new RoomRevisions();
    private final RoomCatchUp catchUp;
    /** How many times a LISTEN began: it changes when events may have been missed (see {@link #listenings()}). */
    private final AtomicLong listenings = new AtomicLong();
    private final Thread listener;
    private volatile boolean closed;

    /**
     * Starts listening on the channel of {@code schema} (or of the default schema), then notes where every
     * room of {@code store} stands.
     *
     * @param nodeId this server's id in the cluster
     * @param local this server's fan-out
     * @param remote where other nodes' presence and typing go on this server
     * @param mapper the gateway's mapper, so that forwarded payloads read as local ones
     * @param store where missed message events are read from
     * @param faults faults a test injects, else {@link BusFaults#NONE}
     */
    public PgEventBus(String nodeId, EventPublisher local, RemoteEvents remote, ObjectMapper mapper, Store store,
                      Database database, String jdbcUrl, String user, String password, String schema,
                      BusFaults faults) {
        this.nodeId = nodeId;
        this.local = local;
        this.remote = remote;
        this.mapper = mapper;
        this.jdbcUrl = jdbcUrl;
        this.faults = faults;
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
        this.catchUp = new RoomCatchUp(revisions, local, remote::joinedRooms, store, database);
        Connection listening;
        try {
            listening = openListening();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot LISTEN on PostgreSQL: " + e.getMessage(), e);
        }
        try {
            catchUp.baseline(); // after LISTEN: a revision stored since is either in the baseline or notified
        } catch (RuntimeException e) {
            BusSender.closeQuietly(listening);
            throw e;
        }
        this.sender = new BusSender(nodeId, channel, jdbcUrl, login, faults);
        this.listener = daemon(() -> listen(listening), "svc-ref-bus-listen");
        listener.start();
    }

    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload) {
        long rev = 0;
        if (payload instanceof Message message && isMessageEvent(event)) {
            rev = message.rev();
            deliverOnce(tenantId, room, event, payload, rev, message.seq());
        } else if (payload instanceof Receipt receipt && MessageActions.ROOM_READ.equals(event)) {
            catchUp.receipts().deliverOnce(tenantId, room, receipt.userId(), receipt.seq(), payload);
        } else {
            local.toRoomMembers(tenantId, room, event, payload);
        }
        Map<String, Object> envelope = envelope(tenantId);
        envelope.put("event", event);
        envelope.put("roomId", room.id());
        envelope.put("members", room.memberIds());
        envelope.put("payload", payload);
        forward(envelope, room.id(), rev, rev > 0 || MessageActions.ROOM_READ.equals(event));
    }

    private static boolean isMessageEvent(String event) {
        return ChatService.NEW_MESSAGE.equals(event) || MessageActions.MESSAGE_UPDATED.equals(event);
    }

    /** Hands a message event to this node's sockets unless its revision was handed already (by a catch-up). */
    private void deliverOnce(String tenantId, Room room, String event, Object payload, long rev, long seq) {
        RoomRevisions.Room delivered = revisions.room(tenantId, room.id());
        synchronized (delivered) {
            if (!delivered.has(rev)) {
                local.toRoomMembers(tenantId, room, event, payload);
                delivered.note(rev, ChatService.NEW_MESSAGE.equals(event) ? seq : 0);
            }
        }
    }

    /** Hands a call event to this node's sockets once ({@link CallCatchUp}), and to the other nodes. */
    @Override
    public void callChanged(String tenantId, Room room, String event, Call call, long version) {
        catchUp.calls().deliverOnce(tenantId, room, event, call.id(), version, call.participantIds(), call);
        Map<String, Object> envelope = envelope(tenantId);
        envelope.put("event", event);
        envelope.put("roomId", room.id());
        envelope.put("members", room.memberIds());
        envelope.put("payload", call);
        envelope.put("callVersion", version);
        forward(envelope, room.id(), 0, true);
    }

    @Override
    public void memberRemoved(String tenantId, String roomId, String userId) {
        local.memberRemoved(tenantId, roomId, userId);
        Map<String, Object> message = envelope(tenantId);
        message.put("removed", userId);
        message.put("roomId", roomId);
        forward(message, roomId, 0, true);
    }

    @Override
    public void presence(String tenantId, String userId, boolean online, Instant at) {
        Map<String, Object> message = envelope(tenantId);
        message.put("presence", userId);
        message.put("online", online);
        message.put("at", at.toEpochMilli());
        forward(message, null, 0, false);
    }

    @Override
    public void typing(String tenantId, String roomId, String userId, boolean isTyping) {
        Map<String, Object> message = envelope(tenantId);
        message.put("typing", userId);
        message.put("roomId", roomId);
        message.put("isTyping", isTyping);
        forward(message, roomId, 0, false);
    }

    /** Another node died: its unsent notifications died with it, so every room is caught up. */
    void nodeGone() {
        catchUp.requestAll();
    }

    private Map<String, Object> envelope(String tenantId) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("node", nodeId);
        message.put("tenant", tenantId);
        return message;
    }

    /**
     * Serialises the message once, here (the payload as the gateway's mapper writes it), and queues it; an
     * event that {@code catchesUp} (a message event at {@code rev}, a receipt) has its room announced instead if
     * the queue is full.
     */
    private void forward(Map<String, Object> message, String roomId, long rev, boolean catchesUp) {
        String text;
        try {
            text = mapper.writeValueAsString(message);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            LOG.warn("cannot forward an event to other nodes: {}", e.getMessage());
            return;
        }
        sender.send(text, (String) message.get("tenant"), roomId, rev, catchesUp);
    }

    private Connection openListening() throws SQLException {
        Connection connection = DriverManager.getConnection(jdbcUrl, login);
        try (Statement st = connection.createStatement()) {
            st.execute("LISTEN \"" + channel + "\"");
            listenings.incrementAndGet();
        } catch (SQLException e) {
            BusSender.closeQuietly(connection);
            throw e;
        }
        return connection;
    }

    /**
     * Delivers other nodes' events until closed, and catches up what the bus lost. A lost connection (a
     * database restart, a terminated backend) is opened again, every {@link #RELISTEN_MILLIS} until it works;
     * then every room that moved meanwhile is caught up before the first notification is read.
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
                    catchUp.runDue();
                }
            } catch (SQLException e) {
                if (!closed) {
                    LOG.warn("the event bus lost its connection ({}); listening again", e.getMessage());
                }
            } finally {
                BusSender.closeQuietly(connection);
            }
            connection = relisten();
            if (connection == null) {
                return;
            }
            faults.relistened();
            catchUp.requestAll();
            catchUp.runDue(); // before the first notification of the new connection
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
        faults.beforeRelisten();
        while (!closed) {
            try {
                Thread.sleep(RELISTEN_MILLIS); // a pause between attempts, not a synchronisation
                Connection connection = openListening();
                if (closed) { // close() gave up waiting for this thread: leave no connection open behind it
                    BusSender.closeQuietly(connection);
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
            String tenantId = message.path("tenant").asText();
            String roomId = message.path("roomId").asText();
            if (message.has("ref")) {
                String stored = BusSender.load(connection, message.path("ref").asLong());
                if (stored == null) {
                    if (message.has("rev")) { // a message event: read it from the database instead
                        catchUp.room(tenantId, roomId, message.path("rev").asLong());
                    } else {
                        LOG.warn("a large event from another node was gone before it was read");
                    }
                    return;
                }
                message = mapper.readTree(stored);
            }
            if (message.has("catchUp")) {
                catchUp.room(tenantId, roomId, message.path("catchUp").asLong());
                return;
            }
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
            String event = message.path("event").asText();
            JsonNode payload = message.path("payload");
            if (isMessageEvent(event) && payload.path("rev").asLong() > 0) {
                deliverOnce(tenantId, room, event, payload, payload.path("rev").asLong(), payload.path("seq").asLong());
            } else if (message.has("callVersion")) {
                List<String> participants = new ArrayList<>();
                payload.path("participantIds").forEach(p -> participants.add(p.asText()));
                catchUp.calls().deliverOnce(tenantId, room, event, payload.path("id").asText(),
                        message.path("callVersion").asLong(), participants, payload);
            } else if (MessageActions.ROOM_READ.equals(event)) {
                catchUp.receipts().deliverOnce(tenantId, room, payload.path("userId").asText(),
                        payload.path("seq").asLong(), payload);
            } else {
                local.toRoomMembers(tenantId, room, event, payload);
            }
        } catch (RuntimeException | java.io.IOException | SQLException e) {
            LOG.warn("dropped an event from another node: {}", e.toString());
        }
    }

    /** Stops listening and forwarding (what is queued gets up to two seconds to go). */
    @Override
    public void close() {
        closed = true;
        sender.close();
        try {
            listener.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
