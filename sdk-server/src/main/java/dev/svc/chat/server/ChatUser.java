package dev.svc.chat.server;

import org.jspecify.annotations.Nullable;

/** A user of the tenant, as the API-key routes answer it. */
public final class ChatUser {
  private final String userId;
  private final @Nullable String username;
  private final long createdAtMillis;
  private final long updatedAtMillis;

  ChatUser(String userId, @Nullable String username, long createdAtMillis, long updatedAtMillis) {
    this.userId = userId;
    this.username = username;
    this.createdAtMillis = createdAtMillis;
    this.updatedAtMillis = updatedAtMillis;
  }

  /**
   * Returns the user id chosen by the tenant.
   *
   * @return the user id
   */
  public String userId() {
    return userId;
  }

  /**
   * Returns the display name.
   *
   * @return the name, or null
   */
  public @Nullable String username() {
    return username;
  }

  /**
   * Returns when the user was created.
   *
   * @return epoch milliseconds
   */
  public long createdAtMillis() {
    return createdAtMillis;
  }

  /**
   * Returns when the user last changed.
   *
   * @return epoch milliseconds
   */
  public long updatedAtMillis() {
    return updatedAtMillis;
  }

  @Override
  public String toString() {
    return "ChatUser{userId=" + userId + ", username=" + username + "}";
  }
}
