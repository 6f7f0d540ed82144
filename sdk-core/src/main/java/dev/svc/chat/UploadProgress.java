package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * How far the upload of a pending send's files got ({@link EventType#UPLOAD_PROGRESS}): the bytes the service
 * holds of all the send's files, and their total. A resumed upload may report fewer bytes than before a cut
 * (what the service kept); the message is sent once {@link #bytesSent()} reaches {@link #bytesTotal()}.
 */
public final class UploadProgress {
  private final String roomId;
  private final String clientMessageId;
  private final long bytesSent;
  private final long bytesTotal;

  /**
   * Creates a progress report.
   *
   * @param roomId the room the message goes to
   * @param clientMessageId the send's client message id
   * @param bytesSent the bytes the service holds, at least 0
   * @param bytesTotal the bytes of the send's files, at least {@code bytesSent}
   */
  public UploadProgress(String roomId, String clientMessageId, long bytesSent, long bytesTotal) {
    if (roomId == null) throw new NullPointerException("roomId == null");
    if (clientMessageId == null) throw new NullPointerException("clientMessageId == null");
    if (bytesSent < 0 || bytesTotal < bytesSent) {
      throw new IllegalArgumentException("bytes " + bytesSent + " of " + bytesTotal);
    }
    this.roomId = roomId;
    this.clientMessageId = clientMessageId;
    this.bytesSent = bytesSent;
    this.bytesTotal = bytesTotal;
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
   * Returns the send's client message id, as in {@link PendingSend#clientMessageId()}.
   *
   * @return the client message id
   */
  public String clientMessageId() {
    return clientMessageId;
  }

  /**
   * Returns the bytes of the send's files the service holds.
   *
   * @return the bytes uploaded
   */
  public long bytesSent() {
    return bytesSent;
  }

  /**
   * Returns the total bytes of the send's files.
   *
   * @return the bytes to upload
   */
  public long bytesTotal() {
    return bytesTotal;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof UploadProgress)) return false;
    UploadProgress p = (UploadProgress) o;
    return roomId.equals(p.roomId) && clientMessageId.equals(p.clientMessageId) && bytesSent == p.bytesSent
        && bytesTotal == p.bytesTotal;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * clientMessageId.hashCode() + (int) bytesSent) + (int) bytesTotal;
  }

  @Override
  public String toString() {
    return "UploadProgress{room=" + roomId + ", clientMessageId=" + clientMessageId + ", " + bytesSent + "/"
        + bytesTotal + "}";
  }
}
