package dev.svc.chat.server;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A call, as the {@code call.*} webhooks carry it: {@code {id, roomId, kind, initiatorId, status,
 * participantIds, createdAt, endedAt?, endReason?}}. Kind and status are the wire's words, kept as they come,
 * so a value newer than this SDK reads too.
 */
public final class ChatCall {
  private final String id;
  private final String roomId;
  private final String kind;
  private final String initiatorId;
  private final String status;
  private final List<String> participantIds;
  private final long createdAtMillis;
  private final @Nullable Long endedAtMillis;
  private final @Nullable String endReason;

  ChatCall(String id, String roomId, String kind, String initiatorId, String status, List<String> participantIds,
      long createdAtMillis, @Nullable Long endedAtMillis, @Nullable String endReason) {
    this.id = id;
    this.roomId = roomId;
    this.kind = kind;
    this.initiatorId = initiatorId;
    this.status = status;
    this.participantIds = participantIds;
    this.createdAtMillis = createdAtMillis;
    this.endedAtMillis = endedAtMillis;
    this.endReason = endReason;
  }

  /**
   * Returns the call's id.
   *
   * @return the id
   */
  public String id() {
    return id;
  }

  /**
   * Returns the room the call is in.
   *
   * @return the room id
   */
  public String roomId() {
    return roomId;
  }

  /**
   * Returns the kind: {@code audio} or {@code video}.
   *
   * @return the kind as sent
   */
  public String kind() {
    return kind;
  }

  /**
   * Returns who started the call.
   *
   * @return the user id
   */
  public String initiatorId() {
    return initiatorId;
  }

  /**
   * Returns the status: {@code ringing}, {@code active}, {@code declined} or {@code ended}.
   *
   * @return the status as sent
   */
  public String status() {
    return status;
  }

  /**
   * Returns the initiator and whoever accepted.
   *
   * @return an unmodifiable list of user ids
   */
  public List<String> participantIds() {
    return participantIds;
  }

  /**
   * Returns when the call started ringing.
   *
   * @return epoch milliseconds
   */
  public long createdAtMillis() {
    return createdAtMillis;
  }

  /**
   * Returns when the call ended.
   *
   * @return epoch milliseconds, or null while it rings or is active
   */
  public @Nullable Long endedAtMillis() {
    return endedAtMillis;
  }

  /**
   * Returns why the call ended: {@code hangup}, {@code left}, {@code declined} or {@code missed}.
   *
   * @return the reason, or null while it rings or is active
   */
  public @Nullable String endReason() {
    return endReason;
  }

  @Override
  public String toString() {
    return "ChatCall{id=" + id + ", roomId=" + roomId + ", kind=" + kind + ", status=" + status + "}";
  }
}
