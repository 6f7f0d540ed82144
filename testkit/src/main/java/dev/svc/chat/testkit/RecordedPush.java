package dev.svc.chat.testkit;

import java.time.Instant;

/**
 * A push notification the reference server recorded instead of sending it to FCM or APNs: one per device of
 * a room member who had no connection when a message arrived.
 *
 * @param userId the recipient
 * @param token the device token it was addressed to
 * @param platform {@code fcm} or {@code apns}
 * @param roomId the room of the message
 * @param messageId the message
 * @param senderId the sender of the message
 * @param title the notification's title
 * @param body the notification's text
 * @param createdAt when the server recorded it, on the server's clock
 */
public record RecordedPush(String userId, String token, String platform, String roomId, String messageId,
    String senderId, String title, String body, Instant createdAt) {
}
