package dev.svc.chat.internal.socketio;

/**
 * One Socket.IO v5 packet (the payload of an Engine.IO MESSAGE):
 * {@code <type>[<attachments>-][/nsp,][ackId][JSON]}.
 */
public final class SocketIoPacket {
  /** The Socket.IO packet types, in wire order: {@code 0} is CONNECT ... {@code 6} is BINARY_ACK. */
  public enum Type { CONNECT, DISCONNECT, EVENT, ACK, CONNECT_ERROR, BINARY_EVENT, BINARY_ACK }

  /** The default namespace. */
  public static final String DEFAULT_NAMESPACE = "/";
  /** The ack id of a packet that has none. */
  public static final int NO_ACK = -1;

  /** The packet type. */
  public final Type type;
  /** The namespace, {@code /} by default. */
  public final String namespace;
  /** The ack id, or {@link #NO_ACK}. */
  public final int ackId;
  /** The number of binary frames that follow (BINARY_EVENT, BINARY_ACK); otherwise 0. */
  public final int attachments;
  /** The JSON payload as text, or null until {@link #data()} cut it from {@link #frame}. */
  private String data;
  /**
   * The whole text frame of an event read on the fast path ({@link SocketIoCodec#fastEvent}), or null: its
   * payload is read from the frame itself, never copied. The transport's own text (a String from OkHttp, an
   * assembled CharSequence from another transport), which nobody changes once it was handed over.
   */
  final CharSequence frame;
  /** Where the payload starts in {@link #frame}; where the arguments after the name start is {@link #argsStart}. */
  final int dataStart;
  /** Where the arguments after the event name start in {@link #frame}, or -1 when there are none. */
  final int argsStart;
  /** The event name of an EVENT or BINARY_EVENT (the first item of the data array); otherwise null. */
  public final String eventName;
  /**
   * The payload of an event read ahead on the socket's reader thread ({@link #readAhead}), and who read it;
   * null when it was not. Published to the actor with the packet itself (through the inbound queue's lock).
   */
  private Object readAhead;
  private Object readAheadBy;

  SocketIoPacket(Type type, String namespace, int ackId, int attachments, String data, String eventName) {
    this.type = type;
    this.namespace = namespace;
    this.ackId = ackId;
    this.attachments = attachments;
    this.data = data;
    this.eventName = eventName;
    this.frame = null;
    this.dataStart = 0;
    this.argsStart = -1;
  }

  /** An EVENT read on the fast path: its payload stays in {@code frame}. */
  SocketIoPacket(CharSequence frame, int dataStart, int argsStart, String eventName) {
    this.type = Type.EVENT;
    this.namespace = DEFAULT_NAMESPACE;
    this.ackId = NO_ACK;
    this.attachments = 0;
    this.data = null;
    this.eventName = eventName;
    this.frame = frame;
    this.dataStart = dataStart;
    this.argsStart = argsStart;
  }

  /** Returns the whole frame of an event read on the fast path, else null. */
  public CharSequence frame() {
    return frame;
  }

  /** Returns where the arguments after the name start in {@link #frame()}, or -1 when there are none. */
  public int argsStart() {
    return argsStart;
  }

  /**
   * Records the payload {@code reader} read from this event ahead of the actor (on the socket's reader
   * thread, before the packet is queued).
   */
  public void readAhead(Object reader, Object payload) {
    this.readAheadBy = reader;
    this.readAhead = payload;
  }

  /** Returns the payload {@code reader} read ahead of the actor ({@link #readAhead}), or null. */
  public Object readAheadBy(Object reader) {
    return readAheadBy == reader ? readAhead : null;
  }

  /** Returns the JSON payload as text; empty when there is none. */
  public String data() {
    String d = data;
    if (d == null) {
      d = frame.subSequence(dataStart, frame.length()).toString();
      data = d;
    }
    return d;
  }

  /** Returns a CONNECT packet for the default namespace with an auth payload (JSON object text). */
  public static SocketIoPacket connect(String authJson) {
    return new SocketIoPacket(Type.CONNECT, DEFAULT_NAMESPACE, NO_ACK, 0, authJson, null);
  }

  /** Returns a DISCONNECT packet for the default namespace. */
  public static SocketIoPacket disconnect() {
    return new SocketIoPacket(Type.DISCONNECT, DEFAULT_NAMESPACE, NO_ACK, 0, "", null);
  }

  /**
   * Returns an EVENT packet for the default namespace.
   *
   * @param name the event name
   * @param argsJson the JSON of the arguments after the name, comma-separated, or empty
   * @param ackId the ack id or {@link #NO_ACK}
   */
  public static SocketIoPacket event(String name, String argsJson, int ackId) {
    String data = "[" + dev.svc.chat.internal.json.Json.string(name)
        + (argsJson.isEmpty() ? "" : "," + argsJson) + "]";
    return new SocketIoPacket(Type.EVENT, DEFAULT_NAMESPACE, ackId, 0, data, name);
  }

  /** Returns an ACK packet for the default namespace; {@code argsJson} is the JSON array of its arguments. */
  public static SocketIoPacket ack(int ackId, String argsJson) {
    return new SocketIoPacket(Type.ACK, DEFAULT_NAMESPACE, ackId, 0, argsJson, null);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SocketIoPacket)) return false;
    SocketIoPacket p = (SocketIoPacket) o;
    return type == p.type && namespace.equals(p.namespace) && ackId == p.ackId
        && attachments == p.attachments && data().equals(p.data());
  }

  @Override
  public int hashCode() {
    return ((type.hashCode() * 31 + namespace.hashCode()) * 31 + ackId) * 31 + data().hashCode();
  }

  @Override
  public String toString() {
    return "SocketIoPacket{" + type + (namespace.equals(DEFAULT_NAMESPACE) ? "" : ", nsp=" + namespace)
        + (ackId == NO_ACK ? "" : ", ackId=" + ackId) + (attachments == 0 ? "" : ", attachments=" + attachments)
        + ", " + EngineIoCodec.abbreviate(data()) + "}";
  }
}
