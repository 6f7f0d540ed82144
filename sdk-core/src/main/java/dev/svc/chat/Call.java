package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A voice or video call in a room (signaling only), as returned by the call operations and carried by the
 * call events. Timestamps are milliseconds since the epoch (UTC).
 */
public final class Call {
  /** {@link #endReason()} when the caller hung up. */
  public static final String END_HANGUP = "hangup";
  /** {@link #endReason()} when fewer than two participants remained. */
  public static final String END_LEFT = "left";
  /** {@link #endReason()} when every other member declined. */
  public static final String END_DECLINED = "declined";
  /** {@link #endReason()} when nobody answered before the ringing timeout. */
  public static final String END_MISSED = "missed";

  private final String id;
  private final String roomId;
  private final @Nullable CallKind kind;
  private final String kindName;
  private final String initiatorId;
  private final CallStatus status;
  private final List<String> participantIds;
  private final long createdAt;
  private final @Nullable Long endedAt;
  private final @Nullable String endReason;

  private Call(Builder b) {
    if (b.id == null) throw new IllegalStateException("id not set");
    if (b.roomId == null) throw new IllegalStateException("roomId not set");
    if (b.kindName == null) throw new IllegalStateException("kind not set");
    if (b.initiatorId == null) throw new IllegalStateException("initiatorId not set");
    this.id = b.id;
    this.roomId = b.roomId;
    this.kindName = b.kindName;
    this.kind = CallKind.fromWire(b.kindName);
    this.initiatorId = b.initiatorId;
    this.status = b.status;
    this.participantIds = Collections.unmodifiableList(new ArrayList<>(b.participantIds));
    this.createdAt = b.createdAt;
    this.endedAt = b.endedAt;
    this.endReason = b.endReason;
  }

  /**
   * Returns a new builder (for tests and fakes; the SDK builds calls from the service's answers).
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the call id, a UUID made by the service.
   *
   * @return the id
   */
  public String id() {
    return id;
  }

  /**
   * Returns the room the call rings in.
   *
   * @return the room id
   */
  public String roomId() {
    return roomId;
  }

  /**
   * Returns the kind of call.
   *
   * @return the kind, or null when a newer service sent a kind this SDK does not know (see {@link #kindName()})
   */
  public @Nullable CallKind kind() {
    return kind;
  }

  /**
   * Returns the kind as the service sent it, such as {@code audio}.
   *
   * @return the wire value
   */
  public String kindName() {
    return kindName;
  }

  /**
   * Returns the user who started the call.
   *
   * @return the initiator's user id
   */
  public String initiatorId() {
    return initiatorId;
  }

  /**
   * Returns the call's state.
   *
   * @return the status
   */
  public CallStatus status() {
    return status;
  }

  /**
   * Returns the initiator and whoever accepted (and has not left), in order.
   *
   * @return an unmodifiable list of user ids
   */
  public List<String> participantIds() {
    return participantIds;
  }

  /**
   * Returns when the call started ringing, in epoch milliseconds.
   *
   * @return the start time
   */
  public long createdAt() {
    return createdAt;
  }

  /**
   * Returns when the call ended or was declined, in epoch milliseconds.
   *
   * @return the end time, or null while it is live
   */
  public @Nullable Long endedAt() {
    return endedAt;
  }

  /**
   * Returns why the call ended: {@link #END_HANGUP}, {@link #END_LEFT}, {@link #END_DECLINED},
   * {@link #END_MISSED}, or another reason a newer service sent.
   *
   * @return the reason, or null while it is live
   */
  public @Nullable String endReason() {
    return endReason;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof Call)) return false;
    Call c = (Call) o;
    return id.equals(c.id) && roomId.equals(c.roomId) && kindName.equals(c.kindName)
        && initiatorId.equals(c.initiatorId) && status == c.status && participantIds.equals(c.participantIds)
        && createdAt == c.createdAt && (endedAt == null ? c.endedAt == null : endedAt.equals(c.endedAt))
        && (endReason == null ? c.endReason == null : endReason.equals(c.endReason));
  }

  @Override
  public int hashCode() {
    int h = id.hashCode();
    h = 31 * h + status.hashCode();
    h = 31 * h + participantIds.hashCode();
    return h;
  }

  @Override
  public String toString() {
    return "Call{id=" + id + ", roomId=" + roomId + ", kind=" + kindName + ", status=" + status
        + ", initiatorId=" + initiatorId + ", participantIds=" + participantIds
        + (endReason != null ? ", endReason=" + endReason : "") + "}";
  }

  /** Builds a {@link Call}; {@code id}, {@code roomId}, {@code kind} and {@code initiatorId} are required. */
  public static final class Builder {
    private @Nullable String id;
    private @Nullable String roomId;
    private @Nullable String kindName;
    private @Nullable String initiatorId;
    private CallStatus status = CallStatus.UNKNOWN;
    private List<String> participantIds = Collections.emptyList();
    private long createdAt;
    private @Nullable Long endedAt;
    private @Nullable String endReason;

    private Builder() {
    }

    /**
     * Sets the id.
     *
     * @param id the call id
     * @return this builder
     */
    public Builder id(String id) {
      this.id = requireNonNull(id, "id");
      return this;
    }

    /**
     * Sets the room.
     *
     * @param roomId the room id
     * @return this builder
     */
    public Builder roomId(String roomId) {
      this.roomId = requireNonNull(roomId, "roomId");
      return this;
    }

    /**
     * Sets the kind.
     *
     * @param kind the kind
     * @return this builder
     */
    public Builder kind(CallKind kind) {
      this.kindName = requireNonNull(kind, "kind").wireName();
      return this;
    }

    /**
     * Sets the kind as sent on the wire (kept even when this SDK does not know it).
     *
     * @param kindName the wire value, such as {@code audio}
     * @return this builder
     */
    public Builder kindName(String kindName) {
      this.kindName = requireNonNull(kindName, "kindName");
      return this;
    }

    /**
     * Sets the initiator.
     *
     * @param initiatorId the user who started the call
     * @return this builder
     */
    public Builder initiatorId(String initiatorId) {
      this.initiatorId = requireNonNull(initiatorId, "initiatorId");
      return this;
    }

    /**
     * Sets the status.
     *
     * @param status the status
     * @return this builder
     */
    public Builder status(CallStatus status) {
      this.status = requireNonNull(status, "status");
      return this;
    }

    /**
     * Sets the participants.
     *
     * @param participantIds the initiator and whoever accepted
     * @return this builder
     */
    public Builder participantIds(List<String> participantIds) {
      this.participantIds = requireNonNull(participantIds, "participantIds");
      return this;
    }

    /**
     * Sets when the call started ringing.
     *
     * @param createdAt epoch milliseconds
     * @return this builder
     */
    public Builder createdAt(long createdAt) {
      this.createdAt = createdAt;
      return this;
    }

    /**
     * Sets when the call ended.
     *
     * @param endedAt epoch milliseconds, or null while live
     * @return this builder
     */
    public Builder endedAt(@Nullable Long endedAt) {
      this.endedAt = endedAt;
      return this;
    }

    /**
     * Sets why the call ended.
     *
     * @param endReason the reason, or null while live
     * @return this builder
     */
    public Builder endReason(@Nullable String endReason) {
      this.endReason = endReason;
      return this;
    }

    /**
     * Returns the call.
     *
     * @return a new immutable call
     * @throws IllegalStateException if a required field is missing
     */
    public Call build() {
      return new Call(this);
    }

    private static <T> T requireNonNull(@Nullable T value, String name) {
      if (value == null) throw new NullPointerException(name + " == null");
      return value;
    }
  }
}
