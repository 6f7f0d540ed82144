package dev.svc.chat.reference.gateway;

import java.time.Instant;

/**
 * Where this node's realtime changes that other nodes must hear go (on a cluster: the PostgreSQL event bus).
 * Called in the order the changes happen here, sometimes under a presence lock: implementations only enqueue.
 */
public interface ClusterRelay {

    /** A relay for a server alone: nothing goes anywhere. */
    ClusterRelay NONE = new ClusterRelay() {
        @Override
        public void presence(String tenantId, String userId, boolean online, Instant at) {
        }

        @Override
        public void typing(String tenantId, String roomId, String userId, boolean isTyping) {
        }
    };

    /** A user's first connection on this node opened ({@code online}) or their last one here closed. */
    void presence(String tenantId, String userId, boolean online, Instant at);

    /** A user typed in a room (sent from a connection of this node that joined it). */
    void typing(String tenantId, String roomId, String userId, boolean isTyping);
}
