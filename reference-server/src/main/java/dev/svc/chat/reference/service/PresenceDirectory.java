package dev.svc.chat.reference.service;

import java.util.List;

/** Who is online: the users of a tenant with at least one session-token connection open. */
public interface PresenceDirectory {

    /** A directory where nobody is online, for a server without a gateway. */
    PresenceDirectory NONE = tenantId -> List.of();

    /** Returns the online userIds of the tenant, sorted. */
    List<String> onlineUsers(String tenantId);
}
