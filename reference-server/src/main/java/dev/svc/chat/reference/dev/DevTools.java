package dev.svc.chat.reference.dev;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.gateway.Gateway;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.store.Store;
import java.time.Clock;
import java.time.Duration;

/**
 * The dev API's state of one server: the faults tenants injected (on requests and on the fan-out), their
 * request logs and webhook deliveries, the dev channel that pushes them to consoles, and the snapshot exporter
 * and importer. Nothing here outlives the process.
 */
public final class DevTools implements AutoCloseable {

    private final DevFaults faults;
    private final DevFanOutDrops drops;
    private final DevRequestLog requestLog = new DevRequestLog();
    private final DevChannel channel;
    private final DevWebhookLog webhooks;
    private final DevSnapshot snapshot;
    private final SnapshotImport importer;

    /**
     * Creates the tools over {@code store}; the dev channel pings its sockets every {@code pingInterval} and
     * drops those that did not answer the previous ping.
     */
    public DevTools(DevAccess access, Store store, ObjectMapper mapper, Clock clock, Duration pingInterval,
                    Duration pingTimeout) {
        this.faults = new DevFaults(clock);
        this.drops = new DevFanOutDrops(clock);
        this.channel = new DevChannel(access, store, mapper, pingInterval, pingTimeout);
        this.webhooks = new DevWebhookLog(channel);
        this.snapshot = new DevSnapshot(store, mapper, clock);
        this.importer = new SnapshotImport(store, mapper, clock);
        requestLog.listen((tenantId, entry) -> channel.publish(tenantId, "request", entry));
    }

    /** Returns the publisher the services are to use: {@code gateway} behind the dev channel's tap. */
    public EventPublisher tap(EventPublisher gateway) {
        return new DevEvents(gateway, drops, channel);
    }

    /** Pushes the gateway's connections of each watched tenant to the dev channel when they change. */
    public void watch(Gateway gateway) {
        channel.everyHalfSecond(new DevConnectionsWatch(gateway, channel));
    }

    /** Returns the injected faults. */
    public DevFaults faults() {
        return faults;
    }

    /** Returns the injected fan-out drops. */
    public DevFanOutDrops drops() {
        return drops;
    }

    /** Returns the request log. */
    public DevRequestLog requestLog() {
        return requestLog;
    }

    /** Returns the dev channel. */
    public DevChannel channel() {
        return channel;
    }

    /** Returns the webhook deliveries' log (the dispatcher's observer). */
    public DevWebhookLog webhooks() {
        return webhooks;
    }

    /** Returns the exporter. */
    public DevSnapshot snapshot() {
        return snapshot;
    }

    /** Returns the importer (the dev API's import and {@code --seed}). */
    public SnapshotImport importer() {
        return importer;
    }

    /** Closes the dev channel's sockets and stops its thread. */
    @Override
    public void close() {
        channel.close();
    }
}
