package dev.svc.chat.reference.dev;

import dev.svc.chat.reference.gateway.ConnectionInfo;
import dev.svc.chat.reference.gateway.Gateway;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pushes a watched tenant's gateway connections to the dev channel ({@code connections}) when they changed:
 * one opened or closed, joined a room, answered a ping, or sent or was sent a frame. Checked twice a second on
 * the channel's thread, for the tenants with a console connected only.
 */
final class DevConnectionsWatch implements Runnable {

    /** The dev channel's event of a tenant's connections. */
    static final String EVENT = "connections";

    private final Gateway gateway;
    private final DevChannel channel;
    // Tenant id to what was last pushed; read and written on the channel's thread only.
    private final Map<String, List<ConnectionInfo>> pushed = new HashMap<>();
    private long joins;

    DevConnectionsWatch(Gateway gateway, DevChannel channel) {
        this.gateway = gateway;
        this.channel = channel;
    }

    @Override
    public void run() {
        long joinsNow = channel.joins();
        if (joinsNow != joins) {
            joins = joinsNow;
            pushed.clear(); // a console that just connected gets the connections without waiting for a change
        }
        java.util.Set<String> watched = channel.watchedTenants();
        pushed.keySet().retainAll(watched);
        for (String tenantId : watched) {
            List<ConnectionInfo> now = gateway.connectionsOf(tenantId);
            now.sort(java.util.Comparator.comparing(ConnectionInfo::connectedSince)
                    .thenComparing(c -> String.valueOf(c.userId())));
            if (now.equals(pushed.get(tenantId))) {
                continue;
            }
            pushed.put(tenantId, now);
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("connections", now);
            channel.publish(tenantId, EVENT, payload);
        }
    }
}
