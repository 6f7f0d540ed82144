package dev.svc.chat.reference.model;

import java.time.Instant;

/**
 * A push notification the reference server would have sent (it sends none): one per device token of a
 * member who had no open session-token connection when a message arrived.
 *
 * @param id a UUID of this record
 * @param userId the recipient
 * @param token the device token it would go to
 * @param platform {@code fcm} or {@code apns}
 * @param roomId the message's room
 * @param messageId the message's id
 * @param senderId who sent the message
 * @param title the notification title (the sender's username, else their userId)
 * @param body the notification body (the text of the first text part, cut to 200 code points)
 * @param createdAt when it was recorded
 */
public record PushRecord(String id, String userId, String token, String platform, String roomId,
                         String messageId, String senderId, String title, String body, Instant createdAt) {
}
