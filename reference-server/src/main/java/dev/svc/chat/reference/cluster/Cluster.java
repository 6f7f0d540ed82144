package dev.svc.chat.reference.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.gateway.FanOut;
import dev.svc.chat.reference.gateway.RemoteEvents;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.service.PresenceDirectory;
import dev.svc.chat.reference.store.Database;
import java.time.Clock;
import java.util.UUID;

/**
 * This server as one node of several on one PostgreSQL database and schema: its id, the event bus that
 * carries room events, presence changes and typing to the other nodes ({@link PgEventBus}), and who is online
 * on any live node ({@link ClusterPresence}).
 */
public final class Cluster implements AutoCloseable {

    private final String nodeId = UUID.randomUUID().toString();
    private final PgEventBus bus;
    private final ClusterPresence presence;

    /**
     * Joins the cluster of the servers on this database and schema: from now on this node's presence changes
     * and typing in {@code fanOut} reach the other nodes, and theirs reach {@code fanOut}'s sockets.
     */
    public Cluster(FanOut fanOut, ObjectMapper mapper, Database database, String jdbcUrl, String user,
                   String password, String schema) {
        RemoteEvents remote = new RemoteEvents(fanOut);
        this.bus = new PgEventBus(nodeId, fanOut, remote, mapper, jdbcUrl, user, password, schema);
        fanOut.relayTo(bus);
        this.presence = new ClusterPresence(nodeId, fanOut, remote, database, Clock.systemUTC());
    }

    /** Returns this node's id. */
    public String nodeId() {
        return nodeId;
    }

    /** Returns where room events go: this node's sockets and the other nodes'. */
    public EventPublisher events() {
        return bus;
    }

    /** Returns who is online on any live node. */
    public PresenceDirectory presence() {
        return presence;
    }

    /** Stops forwarding, listening and beating; this node's users stop counting on the others. */
    @Override
    public void close() {
        bus.close();
        presence.close();
    }
}
