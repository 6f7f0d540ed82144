package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A message the client's outbox has not yet delivered, as returned by {@link ChatClient#pendingSends()}: for
 * showing it optimistically (see {@link #pendingMessage()} and
 * {@link MessageLists#reconcileSelfSentMessage(List, Message)}) and a retry state. It is a snapshot: later
 * attempts do not change it.
 */
public final class PendingSend {
  private final String roomId;
  private final String clientMessageId;
  private final String senderId;
  private final List<MessagePart> parts;
  private final long createdAt;
  private final int attempts;
  private final @Nullable ChatException lastError;
  private final long bytesSent;
  private final long bytesTotal;

  /**
   * Creates a pending send.
   *
   * @param roomId the room the message goes to
   * @param clientMessageId the id the service deduplicates the send by
   * @param senderId the user sending it
   * @param parts the parts of the message
   * @param createdAt when the app made the send, in epoch milliseconds
   * @param attempts how many requests were started so far, at least 0
   * @param lastError the failure of the latest attempt, or null
   */
  public PendingSend(String roomId, String clientMessageId, String senderId, List<MessagePart> parts,
      long createdAt, int attempts, @Nullable ChatException lastError) {
    this(roomId, clientMessageId, senderId, parts, createdAt, attempts, lastError, 0, 0);
  }

  /**
   * Creates a pending send with the progress of its files' upload.
   *
   * @param roomId the room the message goes to
   * @param clientMessageId the id the service deduplicates the send by
   * @param senderId the user sending it
   * @param parts the parts of the message
   * @param createdAt when the app made the send, in epoch milliseconds
   * @param attempts how many requests were started so far, at least 0
   * @param lastError the failure of the latest attempt, or null
   * @param bytesSent the bytes of its files the service holds, at least 0
   * @param bytesTotal the bytes of its files, 0 for a send without files or before they were measured
   */
  public PendingSend(String roomId, String clientMessageId, String senderId, List<MessagePart> parts,
      long createdAt, int attempts, @Nullable ChatException lastError, long bytesSent, long bytesTotal) {
    if (bytesSent < 0 || bytesTotal < 0) {
      throw new IllegalArgumentException("negative byte count: " + bytesSent + " of " + bytesTotal);
    }
    this.bytesSent = bytesSent;
    this.bytesTotal = bytesTotal;
    if (roomId == null) throw new NullPointerException("roomId == null");
    if (clientMessageId == null) throw new NullPointerException("clientMessageId == null");
    if (senderId == null) throw new NullPointerException("senderId == null");
    if (parts == null) throw new NullPointerException("parts == null");
    if (attempts < 0) throw new IllegalArgumentException("attempts < 0: " + attempts);
    this.roomId = roomId;
    this.clientMessageId = clientMessageId;
    this.senderId = senderId;
    this.parts = Collections.unmodifiableList(new ArrayList<>(parts));
    this.createdAt = createdAt;
    this.attempts = attempts;
    this.lastError = lastError;
  }

  /**
   * Returns the room the message goes to.
   *
   * @return the room id
   */
  public String roomId() {
    return roomId;
  }

  /**
   * Returns the id the service deduplicates the send by; the stored message carries it too.
   *
   * @return the client message id
   */
  public String clientMessageId() {
    return clientMessageId;
  }

  /**
   * Returns the user sending the message.
   *
   * @return the sender's user id
   */
  public String senderId() {
    return senderId;
  }

  /**
   * Returns the parts of the message.
   *
   * @return an unmodifiable list of 1 to 10 parts
   */
  public List<MessagePart> parts() {
    return parts;
  }

  /**
   * Returns when the app made the send, by the device's clock (kept across restarts for a file-backed
   * outbox).
   *
   * @return epoch milliseconds
   */
  public long createdAt() {
    return createdAt;
  }

  /**
   * Returns how many requests were started for this send so far, in this process: 0 while it waits for its
   * turn or for the connection.
   *
   * @return the number of attempts
   */
  public int attempts() {
    return attempts;
  }

  /**
   * Returns the failure of the latest attempt, which the outbox will retry: a {@link TransportException}, or
   * an {@link ApiException} with a 5xx status or 429.
   *
   * @return the latest failure, or null when no attempt failed yet
   */
  public @Nullable ChatException lastError() {
    return lastError;
  }

  /**
   * Returns how many bytes of the send's files the service holds so far (as the latest upload request or
   * {@code HEAD} said); {@link EventType#UPLOAD_PROGRESS} tells each step.
   *
   * @return the bytes uploaded, 0 for a send without files
   */
  public long bytesSent() {
    return bytesSent;
  }

  /**
   * Returns the total bytes of the send's files, known once their upload started.
   *
   * @return the bytes to upload, 0 for a send without files or before its upload started
   */
  public long bytesTotal() {
    return bytesTotal;
  }

  /**
   * Returns the message to show while the send is pending, as {@link MessageLists#pendingMessage} makes it:
   * {@code seq} 0 and {@code id} equal to the client message id.
   *
   * @return a pending message
   */
  public Message pendingMessage() {
    return MessageLists.pendingMessage(roomId, senderId, clientMessageId, parts, createdAt);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof PendingSend)) return false;
    PendingSend that = (PendingSend) o;
    return createdAt == that.createdAt && attempts == that.attempts && roomId.equals(that.roomId)
        && bytesSent == that.bytesSent && bytesTotal == that.bytesTotal
        && clientMessageId.equals(that.clientMessageId) && senderId.equals(that.senderId)
        && parts.equals(that.parts) && (lastError == null ? that.lastError == null : lastError.equals(that.lastError));
  }

  @Override
  public int hashCode() {
    int h = roomId.hashCode();
    h = 31 * h + clientMessageId.hashCode();
    h = 31 * h + senderId.hashCode();
    h = 31 * h + parts.hashCode();
    h = 31 * h + (int) (createdAt ^ (createdAt >>> 32));
    return 31 * h + attempts;
  }

  @Override
  public String toString() {
    return "PendingSend{room=" + roomId + ", clientMessageId=" + clientMessageId + ", attempts=" + attempts
        + (bytesTotal == 0 ? "" : ", uploaded=" + bytesSent + "/" + bytesTotal)
        + (lastError == null ? "" : ", lastError=" + lastError) + "}";
  }
}
