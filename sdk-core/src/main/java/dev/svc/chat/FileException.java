package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * A file could not be sent or received as it was: its source vanished or changed before its upload was complete,
 * or downloaded bytes do not match the file's {@code sha256}. Nothing wrong is ever sent or kept: the send fails
 * with this exception (a send loaded from the outbox at start reports it as the cause of a
 * {@link ClientError.Kind#SEND_FAILED}), and a download deletes what it wrote to its target file.
 */
public final class FileException extends ChatException {
  private static final long serialVersionUID = 1L;

  /** What went wrong with the file. */
  public enum Kind {
    /** The source can no longer be read: the file was deleted, or an opener-backed send outlived its process. */
    SOURCE_VANISHED,
    /** The source's length or sha256 differs from what the upload started with. */
    SOURCE_CHANGED,
    /** The downloaded bytes do not have the file's length or sha256. */
    CHECKSUM_MISMATCH
  }

  /** What went wrong. */
  private final Kind kind;

  /**
   * Creates a file exception.
   *
   * @param kind what went wrong
   * @param message a human text
   * @param cause the underlying failure, or null
   */
  public FileException(Kind kind, String message, @Nullable Throwable cause) {
    super(message, cause);
    if (kind == null) throw new NullPointerException("kind == null");
    this.kind = kind;
  }

  /**
   * Returns what went wrong.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }
}
