package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * A user of the tenant went online (their first connection opened) or offline (their last one closed):
 * gateway event {@code tenant-presence}. Only session-token connections count; API-key ones cause none.
 */
public final class PresenceEvent {
  private final String userId;
  private final boolean online;
  private final long at;

  private PresenceEvent(String userId, boolean online, long at) {
    if (userId == null) throw new NullPointerException("userId == null");
    this.userId = userId;
    this.online = online;
    this.at = at;
  }

  /**
   * Returns a presence event.
   *
   * @param userId the user
   * @param online whether the user is online now
   * @param at when it changed, in epoch milliseconds
   * @return a new event
   */
  public static PresenceEvent of(String userId, boolean online, long at) {
    return new PresenceEvent(userId, online, at);
  }

  /**
   * Returns the user whose presence changed.
   *
   * @return the user id
   */
  public String userId() {
    return userId;
  }

  /**
   * Returns whether the user is online now.
   *
   * @return true when online
   */
  public boolean isOnline() {
    return online;
  }

  /**
   * Returns when the presence changed, in epoch milliseconds.
   *
   * @return the time
   */
  public long at() {
    return at;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof PresenceEvent)) return false;
    PresenceEvent p = (PresenceEvent) o;
    return userId.equals(p.userId) && online == p.online && at == p.at;
  }

  @Override
  public int hashCode() {
    return (userId.hashCode() * 31 + (online ? 1 : 0)) * 31 + (int) (at ^ (at >>> 32));
  }

  @Override
  public String toString() {
    return "PresenceEvent{userId=" + userId + ", online=" + online + ", at=" + at + "}";
  }
}
