package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * Someone started or stopped typing in the connection's joined room (gateway event {@code typing}). The
 * service never sends a user's own typing back to their connections.
 */
public final class TypingEvent {
  private final String roomId;
  private final String userId;
  private final boolean typing;

  private TypingEvent(String roomId, String userId, boolean typing) {
    if (roomId == null) throw new NullPointerException("roomId == null");
    if (userId == null) throw new NullPointerException("userId == null");
    this.roomId = roomId;
    this.userId = userId;
    this.typing = typing;
  }

  /**
   * Returns a typing event.
   *
   * @param roomId the room
   * @param userId the user who types
   * @param isTyping whether they are typing now
   * @return a new event
   */
  public static TypingEvent of(String roomId, String userId, boolean isTyping) {
    return new TypingEvent(roomId, userId, isTyping);
  }

  /**
   * Returns the room id.
   *
   * @return the room id
   */
  public String roomId() {
    return roomId;
  }

  /**
   * Returns the user who started or stopped typing.
   *
   * @return the user id
   */
  public String userId() {
    return userId;
  }

  /**
   * Returns whether the user is typing now.
   *
   * @return true when typing started, false when it stopped
   */
  public boolean isTyping() {
    return typing;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof TypingEvent)) return false;
    TypingEvent t = (TypingEvent) o;
    return roomId.equals(t.roomId) && userId.equals(t.userId) && typing == t.typing;
  }

  @Override
  public int hashCode() {
    return (roomId.hashCode() * 31 + userId.hashCode()) * 31 + (typing ? 1 : 0);
  }

  @Override
  public String toString() {
    return "TypingEvent{roomId=" + roomId + ", userId=" + userId + ", isTyping=" + typing + "}";
  }
}
