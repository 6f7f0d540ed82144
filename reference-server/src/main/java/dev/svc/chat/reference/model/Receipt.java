package dev.svc.chat.reference.model;

import java.time.Instant;

/**
 * A read receipt: how far one user has read one room, {@code {roomId, userId, messageId, seq, readAt}}.
 *
 * @param roomId the room
 * @param userId the reader
 * @param messageId the newest message the reader has read
 * @param seq that message's seq; a receipt never moves to a lower one
 * @param readAt when the receipt last moved
 */
public record Receipt(String roomId, String userId, String messageId, long seq, Instant readAt) {
}
