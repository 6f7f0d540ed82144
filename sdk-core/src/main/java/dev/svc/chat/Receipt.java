package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * A read receipt: how far one user has read one room (gateway event {@code room-read}, and the answer of
 * {@link ChatClient#markRead}). A receipt never moves backwards. Timestamps are epoch milliseconds (UTC).
 */
public final class Receipt {
  private final String roomId;
  private final String userId;
  private final String messageId;
  private final long seq;
  private final long readAt;
  private final boolean pending;

  private Receipt(String roomId, String userId, String messageId, long seq, long readAt, boolean pending) {
    this.roomId = nonNull(roomId, "roomId");
    this.userId = nonNull(userId, "userId");
    this.messageId = nonNull(messageId, "messageId");
    if (seq < 1) throw new IllegalArgumentException("seq < 1: " + seq);
    this.seq = seq;
    this.readAt = readAt;
    this.pending = pending;
  }

  /**
   * Returns a receipt.
   *
   * @param roomId the room
   * @param userId the reader
   * @param messageId the newest message read
   * @param seq that message's seq, at least 1
   * @param readAt when the receipt moved, in epoch milliseconds
   * @return a new receipt
   */
  public static Receipt of(String roomId, String userId, String messageId, long seq, long readAt) {
    return new Receipt(roomId, userId, messageId, seq, readAt, false);
  }

  /**
   * Returns this receipt as kept on the device and not yet confirmed by the service ({@link #pending()}).
   *
   * @return a pending copy of this receipt
   */
  public Receipt asPending() {
    return pending ? this : new Receipt(roomId, userId, messageId, seq, readAt, true);
  }

  /**
   * Returns whether this receipt is the user's own read kept on the device (the offline store) and not yet
   * confirmed by the service: {@link ChatClient#markRead}'s answer when the client closed before it could send
   * the read. It is sent at the user's next start; an app shows it as read, and may show it as pending.
   *
   * @return whether the service has not confirmed it yet
   */
  public boolean pending() {
    return pending;
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
   * Returns the reader's user id.
   *
   * @return the user id
   */
  public String userId() {
    return userId;
  }

  /**
   * Returns the id of the newest message the user has read.
   *
   * @return the message id
   */
  public String messageId() {
    return messageId;
  }

  /**
   * Returns the seq of the newest message the user has read: every message up to it counts as read.
   *
   * @return the seq
   */
  public long seq() {
    return seq;
  }

  /**
   * Returns when the receipt last moved, in epoch milliseconds.
   *
   * @return the time
   */
  public long readAt() {
    return readAt;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof Receipt)) return false;
    Receipt r = (Receipt) o;
    return roomId.equals(r.roomId) && userId.equals(r.userId) && messageId.equals(r.messageId) && seq == r.seq
        && readAt == r.readAt && pending == r.pending;
  }

  @Override
  public int hashCode() {
    int h = roomId.hashCode();
    h = 31 * h + userId.hashCode();
    h = 31 * h + messageId.hashCode();
    h = 31 * h + (int) (seq ^ (seq >>> 32));
    h = 31 * h + (int) (readAt ^ (readAt >>> 32));
    return 31 * h + (pending ? 1 : 0);
  }

  @Override
  public String toString() {
    return "Receipt{roomId=" + roomId + ", userId=" + userId + ", messageId=" + messageId + ", seq=" + seq
        + ", readAt=" + readAt + (pending ? ", pending" : "") + "}";
  }

  private static <V> V nonNull(@Nullable V v, String name) {
    if (v == null) throw new NullPointerException(name + " == null");
    return v;
  }
}
