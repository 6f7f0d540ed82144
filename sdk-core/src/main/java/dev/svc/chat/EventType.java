package dev.svc.chat;

/**
 * A typed key for the events a {@link ChatClient} delivers: pass one to
 * {@link ChatClient#on(EventType, EventHandler)}. Realtime events carry the gateway's event name (for
 * example {@code new-message}); client-side events such as {@link #CONNECTION_STATE} are not sent by the
 * service.
 *
 * @param <T> the payload type handlers receive
 */
public final class EventType<T> {
  /** A message arrived in any of the user's rooms (gateway event {@code new-message}). */
  public static final EventType<Message> NEW_MESSAGE =
      new EventType<>("new-message", Message.class, true);

  /** A call started ringing in one of the user's rooms (gateway event {@code call-invite}). */
  public static final EventType<Call> CALL_INVITE = new EventType<>("call-invite", Call.class, true);

  /** A member accepted a call (gateway event {@code call-accepted}). */
  public static final EventType<Call> CALL_ACCEPTED = new EventType<>("call-accepted", Call.class, true);

  /** A member declined a ringing call (gateway event {@code call-declined}). */
  public static final EventType<Call> CALL_DECLINED = new EventType<>("call-declined", Call.class, true);

  /** A call ended, whatever the reason (gateway event {@code call-ended}; see {@link Call#endReason()}). */
  public static final EventType<Call> CALL_ENDED = new EventType<>("call-ended", Call.class, true);
  /**
   * A message of any of the user's rooms was edited, reacted to or deleted (gateway event
   * {@code message-updated}); the payload is the whole new version of the message.
   */
  public static final EventType<Message> MESSAGE_UPDATED =
      new EventType<>("message-updated", Message.class, true);

  /** Someone else started or stopped typing in the joined room (gateway event {@code typing}). */
  public static final EventType<TypingEvent> TYPING =
      new EventType<>("typing", TypingEvent.class, true);

  /** A user of the tenant went online or offline (gateway event {@code tenant-presence}). */
  public static final EventType<PresenceEvent> TENANT_PRESENCE =
      new EventType<>("tenant-presence", PresenceEvent.class, true);

  /** A member of one of the user's rooms moved their read receipt (gateway event {@code room-read}). */
  public static final EventType<Receipt> ROOM_READ =
      new EventType<>("room-read", Receipt.class, true);

  /**
   * The connection state changed. It is raised by the client itself, not by the service. It never waits behind
   * a backlog of other events: it is delivered ahead of the events still queued for slow handlers, and, on a
   * callback executor of several threads, may run while another handler is running. Events raised after it
   * are never delivered before it, and state changes keep their order; see {@link ConnectionStateChange}.
   */
  public static final EventType<ConnectionStateChange> CONNECTION_STATE =
      new EventType<>("connection-state", ConnectionStateChange.class, false);

  /**
   * The client met a problem and handled it: a malformed or oversized frame, a refused re-join, a recovery
   * request being retried, a corrupt outbox entry. Raised by the client itself, for apps that show or log
   * such problems; nothing needs to be done in answer.
   */
  public static final EventType<ClientError> CLIENT_ERROR =
      new EventType<>("client-error", ClientError.class, false);

  /**
   * The client is recovering, or has recovered, what it missed while not connected (see
   * {@link RecoveryEvent}). Raised by the client itself.
   */
  public static final EventType<RecoveryEvent> RECOVERY =
      new EventType<>("recovery", RecoveryEvent.class, false);

  /**
   * The upload of a pending send's files moved on (see {@link UploadProgress}): after each chunk the service
   * took, and when a resumed upload learned where the service stands. Raised by the client itself.
   */
  public static final EventType<UploadProgress> UPLOAD_PROGRESS =
      new EventType<>("upload-progress", UploadProgress.class, false);

  private final String name;
  private final Class<T> payloadType;
  private final boolean fromGateway;

  private EventType(String name, Class<T> payloadType, boolean fromGateway) {
    this.name = name;
    this.payloadType = payloadType;
    this.fromGateway = fromGateway;
  }

  /**
   * Returns the event's name: the gateway's event name for realtime events.
   *
   * @return the name, such as {@code new-message}
   */
  public String name() {
    return name;
  }

  /**
   * Returns the class of the payload handlers receive.
   *
   * @return the payload class
   */
  public Class<T> payloadType() {
    return payloadType;
  }

  /**
   * Returns whether the event comes from the realtime gateway (true) or is raised by the client (false).
   *
   * @return true for gateway events
   */
  public boolean isFromGateway() {
    return fromGateway;
  }

  @Override
  public String toString() {
    return "EventType{" + name + "}";
  }
}
