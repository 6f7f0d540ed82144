package dev.svc.chat.reference.service;

import java.util.List;

/** Who is online: the users of a tenant with at least one session-token connection open. */
public interface PresenceDirectory {

    /** A directory where nobody is online, for a server without a gateway. */
    PresenceDirectory NONE = new PresenceDirectory() {
        @Override
        public List<String> onlineUsers(String tenantId) {
            return List.of();
        }

        @Override
        public boolean isOnline(String tenantId, String userId) {
            return false;
        }
    };

    /** Returns the online userIds of the tenant, sorted. */
    List<String> onlineUsers(String tenantId);

    /** Returns whether {@code userId} of {@code tenantId} has at least one open session-token connection. */
    boolean isOnline(String tenantId, String userId);
}
