package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * One row of the room list ({@link RoomList}): a room, its last visible message, how many messages are
 * unread, and when it was last active. Immutable.
 *
 * <p>Unread, the one rule: a message is unread when another user sent it, its {@code seq} is above this user's
 * own read receipt in the room, and it is not deleted. The app's own sends are never unread; reading on another
 * device (its {@code room-read}) and {@link ChatClient#markRead} (applied at once, even offline) lower the
 * count; a deleted message leaves it. The count is exact up to the client's cap
 * ({@link SvcOptions.Builder#unreadCap}); above it, {@link #unreadCapped()} is true and the count is the cap.
 *
 * <p>{@link #unreadMentions()} counts the unread messages that mention the user ({@link Message#mentions()}), under
 * the same rule and with the same exactness: an edit that drops the mention, a delete or a read lowers it.
 */
public final class RoomSummary {
  private final Room room;
  private final @Nullable Message lastMessage;
  private final int unreadCount;
  private final boolean unreadCapped;
  private final long lastActivityAt;
  private final int unreadMentions;

  /**
   * Creates a summary.
   *
   * @param room the room
   * @param lastMessage its newest message not deleted, or null when none is known
   * @param unreadCount the messages unread, at most the cap
   * @param unreadCapped whether more than the cap are unread
   * @param lastActivityAt when the room was last active (its newest message, else its creation), epoch millis
   */
  public RoomSummary(Room room, @Nullable Message lastMessage, int unreadCount, boolean unreadCapped,
      long lastActivityAt) {
    this(room, lastMessage, unreadCount, unreadCapped, lastActivityAt, 0);
  }

  /**
   * Creates a summary with a count of unread mentions.
   *
   * @param room the room
   * @param lastMessage its newest message not deleted, or null when none is known
   * @param unreadCount the messages unread, at most the cap
   * @param unreadCapped whether more than the cap are unread
   * @param lastActivityAt when the room was last active (its newest message, else its creation), epoch millis
   * @param unreadMentions the unread messages that mention the user, at most {@code unreadCount}
   */
  public RoomSummary(Room room, @Nullable Message lastMessage, int unreadCount, boolean unreadCapped,
      long lastActivityAt, int unreadMentions) {
    if (room == null) throw new NullPointerException("room == null");
    this.room = room;
    this.lastMessage = lastMessage;
    this.unreadCount = unreadCount;
    this.unreadCapped = unreadCapped;
    this.lastActivityAt = lastActivityAt;
    if (unreadMentions < 0) throw new IllegalArgumentException("unreadMentions < 0: " + unreadMentions);
    this.unreadMentions = unreadMentions;
  }

  /**
   * Returns how many unread messages mention the user: a mention badge, apart from the unread one.
   *
   * @return the count, at most {@link #unreadCount()}
   */
  public int unreadMentions() {
    return unreadMentions;
  }

  /**
   * Returns the room, as last listed or seen.
   *
   * @return the room
   */
  public Room room() {
    return room;
  }

  /**
   * Returns the room's newest message that is not deleted.
   *
   * @return the message, or null when the room has none the client knows
   */
  public @Nullable Message lastMessage() {
    return lastMessage;
  }

  /**
   * Returns how many messages are unread (the rule is in the class comment).
   *
   * @return the count, at most the cap
   */
  public int unreadCount() {
    return unreadCount;
  }

  /**
   * Returns whether more messages are unread than the cap: show "999+".
   *
   * @return true when capped
   */
  public boolean unreadCapped() {
    return unreadCapped;
  }

  /**
   * Returns when the room was last active: its newest message, else when it was made.
   *
   * @return epoch milliseconds
   */
  public long lastActivityAt() {
    return lastActivityAt;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof RoomSummary)) return false;
    RoomSummary s = (RoomSummary) o;
    return unreadCount == s.unreadCount && unreadMentions == s.unreadMentions && unreadCapped == s.unreadCapped && lastActivityAt == s.lastActivityAt
        && room.equals(s.room) && (lastMessage == null ? s.lastMessage == null : lastMessage.equals(s.lastMessage));
  }

  @Override
  public int hashCode() {
    int h = room.hashCode();
    h = 31 * h + (lastMessage == null ? 0 : lastMessage.hashCode());
    h = 31 * h + unreadCount;
    h = 31 * h + unreadMentions;
    return 31 * h + (int) (lastActivityAt ^ (lastActivityAt >>> 32));
  }

  @Override
  public String toString() {
    return "RoomSummary{" + room.id() + ", unread=" + unreadCount + (unreadCapped ? "+" : "")
        + (unreadMentions == 0 ? "" : ", mentions=" + unreadMentions) + ", lastActivityAt="
        + lastActivityAt + "}";
  }
}
