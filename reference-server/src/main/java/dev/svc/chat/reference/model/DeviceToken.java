package dev.svc.chat.reference.model;

/**
 * A push device token registered by a user's app.
 *
 * @param token the FCM registration token or APNs device token
 * @param platform {@code fcm} or {@code apns}
 * @param userId the user it belongs to
 */
public record DeviceToken(String token, String platform, String userId) {
}
