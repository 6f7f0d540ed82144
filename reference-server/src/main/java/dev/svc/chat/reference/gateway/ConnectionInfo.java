package dev.svc.chat.reference.gateway;

import java.time.Instant;

/**
 * What the dev API shows of one gateway connection with a Socket.IO session.
 *
 * @param userId the token's user, or null for a connection made with the tenant's API key
 * @param transport always {@code websocket} (the gateway offers no other)
 * @param connectedSince when the WebSocket opened
 * @param framesIn the frames received from the client
 * @param framesOut the frames queued for the client
 * @param queuedBytes the bytes of the frames waiting in the server's outbound queue for the client now (what a
 *                    slow reader holds of the server's memory; at most the queue's byte bound)
 * @param lastPongAt when the client last answered a ping, or null before its first
 * @param joinedRoomId the joined room, or null
 */
public record ConnectionInfo(String userId, String transport, Instant connectedSince, long framesIn,
                             long framesOut, long queuedBytes, Instant lastPongAt,
                             String joinedRoomId) {
}
