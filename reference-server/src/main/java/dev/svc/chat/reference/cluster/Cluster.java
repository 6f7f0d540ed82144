package dev.svc.chat.reference.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.gateway.FanOut;
import dev.svc.chat.reference.gateway.RemoteEvents;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.service.PresenceDirectory;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.webhook.WebhookDispatcher;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server as one node of several on one PostgreSQL database and schema: its id, the event bus that
 * carries room events, presence changes and typing to the other nodes ({@link PgEventBus}, which catches up
 * from the database what it lost, also when another node dies), and who is online on any live node
 * ({@link ClusterPresence}).
 */
public final class Cluster implements AutoCloseable {

    /** How often a node looks for webhooks no node holds. */
    public static final Duration WEBHOOK_SWEEP = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);

    private final String nodeId = UUID.randomUUID().toString();
    private final Database database;
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "svc-ref-webhook-sweep");
        t.setDaemon(true);
        return t;
    });
    private final PgEventBus bus;
    private final ClusterPresence presence;

    /**
     * Joins the cluster of the servers on this database and schema: from now on this node's presence changes
     * and typing in {@code fanOut} reach the other nodes, and theirs reach {@code fanOut}'s sockets.
     */
    public Cluster(FanOut fanOut, ObjectMapper mapper, Store store, Database database, String jdbcUrl, String user,
                   String password, String schema, BusFaults faults) {
        this.database = database;
        RemoteEvents remote = new RemoteEvents(fanOut);
        this.bus = new PgEventBus(nodeId, fanOut, remote, mapper, store, database, jdbcUrl, user, password, schema,
                faults);
        fanOut.relayTo(bus);
        this.presence = new ClusterPresence(nodeId, fanOut, remote, bus::listenings, bus::nodeGone, database,
                Clock.systemUTC());
    }

    /**
     * Makes {@code webhooks} claim each attempt in the database (for {@code lease}), and looks every
     * {@link #WEBHOOK_SWEEP} for deliveries no node holds (their node died mid-delivery, or before their retry
     * was due) to take them over.
     */
    public void deliverWebhooks(WebhookDispatcher webhooks, Clock clock, Duration lease) {
        webhooks.claimWith(new WebhookLeases(nodeId, database, clock, lease), lease);
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                webhooks.resume();
            } catch (RuntimeException e) {
                LOG.warn("webhook sweep failed: {}", e.getMessage());
            }
        }, WEBHOOK_SWEEP.toMillis(), WEBHOOK_SWEEP.toMillis(), TimeUnit.MILLISECONDS);
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
        sweeper.shutdownNow();
        bus.close();
        presence.close();
    }
}
