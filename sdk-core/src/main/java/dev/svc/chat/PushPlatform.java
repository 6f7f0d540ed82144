package dev.svc.chat;

/** The push service a device token belongs to. */
public enum PushPlatform {
  /** Firebase Cloud Messaging (Android, and iOS through Firebase); wire value {@code fcm}. */
  FCM("fcm"),
  /** Apple Push Notification service; wire value {@code apns}. */
  APNS("apns");

  private final String wireName;

  PushPlatform(String wireName) {
    this.wireName = wireName;
  }

  /**
   * Returns the value the service uses, {@code fcm} or {@code apns}.
   *
   * @return the wire value
   */
  public String wireName() {
    return wireName;
  }
}
