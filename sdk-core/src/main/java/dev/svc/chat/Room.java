package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A chat room the user is a member of. Timestamps are milliseconds since the epoch (UTC).
 */
public final class Room {
  private final String id;
  private final @Nullable String name;
  private final List<String> memberIds;
  private final long createdAt;
  private final long lastMessageSeq;
  private final @Nullable Long lastMessageAt;
  private final long rev;

  private Room(Builder b) {
    if (b.id == null) throw new IllegalStateException("id not set");
    this.id = b.id;
    this.name = b.name;
    this.memberIds = Collections.unmodifiableList(new ArrayList<>(b.memberIds));
    this.createdAt = b.createdAt;
    this.lastMessageSeq = b.lastMessageSeq;
    this.lastMessageAt = b.lastMessageAt;
    this.rev = b.rev;
  }

  /**
   * Returns a new builder.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the room id, a UUID made by the service.
   *
   * @return the id
   */
  public String id() {
    return id;
  }

  /**
   * Returns the room's display name.
   *
   * @return the name, or null when the room has none
   */
  public @Nullable String name() {
    return name;
  }

  /**
   * Returns the user ids of the room's members.
   *
   * @return an unmodifiable list
   */
  public List<String> memberIds() {
    return memberIds;
  }

  /**
   * Returns when the room was created, in epoch milliseconds.
   *
   * @return the creation time
   */
  public long createdAt() {
    return createdAt;
  }

  /**
   * Returns the sequence number of the room's latest message; 0 when it has none.
   *
   * @return the latest sequence number
   */
  public long lastMessageSeq() {
    return lastMessageSeq;
  }

  /**
   * Returns when the room's latest message was created, in epoch milliseconds.
   *
   * @return the time, or null when the room has no message
   */
  public @Nullable Long lastMessageAt() {
    return lastMessageAt;
  }

  /**
   * Returns the room's latest revision: every change to its messages (a send, an edit, a reaction toggle, a
   * delete) takes the next one, from 1. A client that has seen every change up to this revision has missed
   * nothing; otherwise {@link ChatClient#getChanges(String, long)} returns what changed since. It is 0 before
   * any message, and when the service did not send one (an older service).
   *
   * @return the revision, at least 0
   */
  public long rev() {
    return rev;
  }

  /**
   * Returns a builder initialised with this room's fields.
   *
   * @return a new builder
   */
  public Builder newBuilder() {
    return new Builder().id(id).name(name).memberIds(memberIds).createdAt(createdAt)
        .lastMessageSeq(lastMessageSeq).lastMessageAt(lastMessageAt).rev(rev);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof Room)) return false;
    Room r = (Room) o;
    return id.equals(r.id) && (name == null ? r.name == null : name.equals(r.name))
        && memberIds.equals(r.memberIds) && createdAt == r.createdAt && lastMessageSeq == r.lastMessageSeq
        && (lastMessageAt == null ? r.lastMessageAt == null : lastMessageAt.equals(r.lastMessageAt))
        && rev == r.rev;
  }

  @Override
  public int hashCode() {
    int h = id.hashCode();
    h = 31 * h + (name == null ? 0 : name.hashCode());
    h = 31 * h + memberIds.hashCode();
    h = 31 * h + (int) (createdAt ^ (createdAt >>> 32));
    h = 31 * h + (int) (lastMessageSeq ^ (lastMessageSeq >>> 32));
    h = 31 * h + (lastMessageAt == null ? 0 : lastMessageAt.hashCode());
    return 31 * h + (int) (rev ^ (rev >>> 32));
  }

  @Override
  public String toString() {
    return "Room{id=" + id + (name == null ? "" : ", name=" + name) + ", memberIds=" + memberIds
        + ", createdAt=" + createdAt + ", lastMessageSeq=" + lastMessageSeq
        + (lastMessageAt == null ? "" : ", lastMessageAt=" + lastMessageAt) + ", rev=" + rev + "}";
  }

  /** Builds a {@link Room}; {@code id} is required. */
  public static final class Builder {
    private @Nullable String id;
    private @Nullable String name;
    private final List<String> memberIds = new ArrayList<>();
    private long createdAt;
    private long lastMessageSeq;
    private @Nullable Long lastMessageAt;
    private long rev;

    Builder() {
    }

    /**
     * Sets the room id.
     *
     * @param id the id
     * @return this builder
     */
    public Builder id(String id) {
      if (id == null) throw new NullPointerException("id == null");
      this.id = id;
      return this;
    }

    /**
     * Sets the display name.
     *
     * @param name the name, or null for none
     * @return this builder
     */
    public Builder name(@Nullable String name) {
      this.name = name;
      return this;
    }

    /**
     * Replaces the member ids.
     *
     * @param memberIds the user ids, none null
     * @return this builder
     */
    public Builder memberIds(List<String> memberIds) {
      if (memberIds == null) throw new NullPointerException("memberIds == null");
      this.memberIds.clear();
      for (String m : memberIds) {
        if (m == null) throw new NullPointerException("memberId == null");
        this.memberIds.add(m);
      }
      return this;
    }

    /**
     * Sets the creation time.
     *
     * @param epochMillis epoch milliseconds
     * @return this builder
     */
    public Builder createdAt(long epochMillis) {
      this.createdAt = epochMillis;
      return this;
    }

    /**
     * Sets the latest message's sequence number.
     *
     * @param seq the sequence number, at least 0
     * @return this builder
     */
    public Builder lastMessageSeq(long seq) {
      if (seq < 0) throw new IllegalArgumentException("lastMessageSeq < 0: " + seq);
      this.lastMessageSeq = seq;
      return this;
    }

    /**
     * Sets the latest message's creation time.
     *
     * @param epochMillis epoch milliseconds, or null
     * @return this builder
     */
    public Builder lastMessageAt(@Nullable Long epochMillis) {
      this.lastMessageAt = epochMillis;
      return this;
    }

    /**
     * Sets the room's latest revision.
     *
     * @param rev the revision, at least 0
     * @return this builder
     */
    public Builder rev(long rev) {
      if (rev < 0) throw new IllegalArgumentException("rev < 0: " + rev);
      this.rev = rev;
      return this;
    }

    /**
     * Returns the room.
     *
     * @return a new immutable room
     * @throws IllegalStateException if the id is not set
     */
    public Room build() {
      return new Room(this);
    }
  }
}
