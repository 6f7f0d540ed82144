package dev.svc.chat.reference.gateway;

import java.time.Instant;
import java.util.List;

/**
 * What other nodes of a cluster tell this one about their connections, handed to this node's sockets by the
 * same rules as its own: a user is online while they have a connection on any live node ({@code
 * tenant-presence} flips when the first opens anywhere and after the last closes everywhere, or its node
 * dies), and {@code typing} goes to this node's connections that joined the room, never the typer's own.
 */
public final class RemoteEvents {

    private final FanOut fanOut;

    /** Feeds {@code fanOut}, this node's fan-out. */
    public RemoteEvents(FanOut fanOut) {
        this.fanOut = fanOut;
    }

    /** {@code userId}'s first connection on node {@code nodeId} opened ({@code online}) or its last closed. */
    public void presence(String nodeId, String tenantId, String userId, boolean online, Instant at) {
        TenantPresence tenant = fanOut.tenantPresence(tenantId);
        if (online ? tenant.remoteOpened(nodeId, userId, at) : tenant.remoteClosed(nodeId, userId, at)) {
            fanOut.presenceChanged(tenant);
        }
    }

    /** Node {@code nodeId} died or left: its users stop counting. */
    public void nodeGone(String nodeId, Instant at) {
        for (TenantPresence tenant : fanOut.tenantPresences()) {
            if (tenant.nodeGone(nodeId, at)) {
                fanOut.presenceChanged(tenant);
            }
        }
    }

    /** A user on another node typed in a room. */
    public void typing(String tenantId, String roomId, String userId, boolean isTyping) {
        fanOut.deliverTyping(tenantId, roomId, userId, isTyping);
    }

    /** Returns the users of the tenant online on this node or another live one, sorted. */
    public List<String> onlineUsers(String tenantId) {
        return fanOut.tenantPresence(tenantId).onlineAnywhere();
    }

    /** Returns whether the user is online on this node or another live one. */
    public boolean isOnline(String tenantId, String userId) {
        return fanOut.tenantPresence(tenantId).isOnlineAnywhere(userId);
    }
}
