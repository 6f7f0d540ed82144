package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * A problem the client met and handled on its own, reported to handlers of {@link EventType#CLIENT_ERROR}
 * so that an app can show or log it: nothing is thrown into app code for these. The client has already
 * reacted as {@link Kind} says (dropped and replaced a connection it could no longer trust, retried a
 * request, set a corrupt file aside); the report is information, not a request to act.
 */
public final class ClientError {
  /** What went wrong. */
  public enum Kind {
    /** The gateway sent a frame or packet the client could not read; the connection was replaced. */
    MALFORMED_FRAME,
    /** A known gateway event had missing or wrong-typed fields; the connection was replaced and the room recovered. */
    MALFORMED_EVENT,
    /** The gateway sent a frame larger than its own {@code maxPayload}; the connection was replaced. */
    FRAME_TOO_LARGE,
    /** The gateway acknowledged an emit the client never made; the connection was replaced. */
    UNKNOWN_ACK,
    /** The gateway sent a binary event, which this protocol does not use; it was skipped. */
    UNSUPPORTED_BINARY,
    /** The gateway's handshake or refusal could not be read; the client retries with backoff. */
    PROTOCOL_ERROR,
    /** The remembered room could not be joined again after a reconnect ({@link #roomId()}); it was forgotten. */
    REJOIN_REFUSED,
    /** A recovery request failed; it is retried with backoff until it succeeds, never skipped. */
    RECOVERY_RETRY,
    /**
     * The user could not read a room ({@link #roomId()}, 403 or 404); its recovery stopped until a live event of the
     * room shows access is back, and then reads on from what was delivered.
     */
    ROOM_ACCESS_LOST,
    /**
     * The service's position of a room ({@link #roomId()}) is below what the client delivered: the service went back
     * to an older state (a restore from a backup). The client takes the service's state: the room's delivery starts
     * again at the service's position, so later messages are delivered even where they reuse a {@code seq} already
     * delivered. An app that keeps messages by {@code seq} should reload the room.
     */
    ROOM_REWOUND,
    /** An entry of the file-backed outbox could not be read; it was set aside, not sent. */
    OUTBOX_CORRUPT,
    /** The file-backed outbox could not write or delete an entry; the send goes on from memory. */
    OUTBOX_IO,
    /**
     * A send loaded from the outbox directory at start (no future waits on it) was refused or timed out;
     * {@link #cause()} says why, {@link #roomId()} where.
     */
    SEND_FAILED,
    /**
     * The offline store could not be used as it was (a corrupt database, or one written by a newer SDK): it was
     * deleted and is rebuilt from the service; nothing is shown from it meanwhile. {@link #cause()} is the
     * store's {@link dev.svc.chat.store.StoreException}.
     */
    STORE_CORRUPT,
    /**
     * The offline store could not be opened, read or written (disk full, permissions): the client goes on from
     * memory and the service, delivering what it receives; what was not stored may be delivered again after a
     * restart. {@link #cause()} is the store's {@link dev.svc.chat.store.StoreException}.
     */
    STORE_IO,
    /**
     * The handlers fell so far behind a flood from the gateway that events recovery does not restore (call events)
     * were dropped, past a bound on those kept while the client sheds what recovery restores. Reported once per
     * flood; read a room's call again with {@code getActiveCall}.
     */
    EVENTS_DROPPED
  }

  private final Kind kind;
  private final String message;
  private final @Nullable String roomId;
  private final @Nullable Throwable cause;

  /**
   * Creates a report.
   *
   * @param kind what went wrong
   * @param message a human-readable description, never containing a credential
   * @param roomId the room concerned, if any
   * @param cause the underlying failure, if any
   */
  public ClientError(Kind kind, String message, @Nullable String roomId, @Nullable Throwable cause) {
    if (kind == null) throw new NullPointerException("kind == null");
    if (message == null) throw new NullPointerException("message == null");
    this.kind = kind;
    this.message = message;
    this.roomId = roomId;
    this.cause = cause;
  }

  /**
   * Returns what went wrong.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * Returns a human-readable description.
   *
   * @return the message
   */
  public String message() {
    return message;
  }

  /**
   * Returns the room concerned.
   *
   * @return the room id, or null when no room is
   */
  public @Nullable String roomId() {
    return roomId;
  }

  /**
   * Returns the underlying failure.
   *
   * @return the cause, or null
   */
  public @Nullable Throwable cause() {
    return cause;
  }

  @Override
  public String toString() {
    return "ClientError{" + kind + (roomId == null ? "" : ", room=" + roomId) + ", " + message + "}";
  }
}
