package dev.svc.chat.server;

import java.util.List;

import org.jspecify.annotations.Nullable;

/** A room, as the API-key routes answer it: {@code {id, name?, memberIds, createdAt, lastMessageSeq, rev}}. */
public final class ChatRoom {
  private final String id;
  private final @Nullable String name;
  private final List<String> memberIds;
  private final long createdAtMillis;
  private final long lastMessageSeq;
  private final @Nullable Long lastMessageAtMillis;
  private final long rev;

  ChatRoom(String id, @Nullable String name, List<String> memberIds, long createdAtMillis, long lastMessageSeq,
      @Nullable Long lastMessageAtMillis, long rev) {
    this.id = id;
    this.name = name;
    this.memberIds = memberIds;
    this.createdAtMillis = createdAtMillis;
    this.lastMessageSeq = lastMessageSeq;
    this.lastMessageAtMillis = lastMessageAtMillis;
    this.rev = rev;
  }

  /**
   * Returns the room's id, made by the service.
   *
   * @return the id
   */
  public String id() {
    return id;
  }

  /**
   * Returns the room's name.
   *
   * @return the name, or null when it has none
   */
  public @Nullable String name() {
    return name;
  }

  /**
   * Returns the members' user ids, in the order the service keeps them.
   *
   * @return an unmodifiable list
   */
  public List<String> memberIds() {
    return memberIds;
  }

  /**
   * Returns when the room was created.
   *
   * @return epoch milliseconds
   */
  public long createdAtMillis() {
    return createdAtMillis;
  }

  /**
   * Returns the {@code seq} of the room's latest message.
   *
   * @return the seq, 0 before any message
   */
  public long lastMessageSeq() {
    return lastMessageSeq;
  }

  /**
   * Returns when the latest message was sent.
   *
   * @return epoch milliseconds, or null before any message
   */
  public @Nullable Long lastMessageAtMillis() {
    return lastMessageAtMillis;
  }

  /**
   * Returns the room's latest revision (contract section 4).
   *
   * @return the revision, 0 before any message
   */
  public long rev() {
    return rev;
  }

  @Override
  public String toString() {
    return "ChatRoom{id=" + id + ", name=" + name + ", memberIds=" + memberIds + "}";
  }
}
