package dev.svc.chat.reference.service;

/** Tells whether a user has an open session-token connection to the gateway. */
public interface OnlineUsers {

    /** A view in which nobody is online, for a server without a gateway. */
    OnlineUsers NOBODY = (tenantId, userId) -> false;

    /** Returns whether {@code userId} of {@code tenantId} has at least one open session-token connection. */
    boolean isOnline(String tenantId, String userId);
}
