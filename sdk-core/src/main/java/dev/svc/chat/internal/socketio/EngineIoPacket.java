package dev.svc.chat.internal.socketio;

/** One Engine.IO v4 packet: one WebSocket text frame, a type digit followed by data. */
public final class EngineIoPacket {
  /** The Engine.IO packet types, in wire order: {@code 0} is OPEN ... {@code 6} is NOOP. */
  public enum Type { OPEN, CLOSE, PING, PONG, MESSAGE, UPGRADE, NOOP }

  /** The packet type. */
  public final Type type;
  /** The text after the type digit; empty when there is none. */
  public final String data;

  /** Creates a packet. */
  public EngineIoPacket(Type type, String data) {
    if (type == null || data == null) throw new NullPointerException();
    this.type = type;
    this.data = data;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EngineIoPacket && ((EngineIoPacket) o).type == type
        && ((EngineIoPacket) o).data.equals(data);
  }

  @Override
  public int hashCode() {
    return type.hashCode() * 31 + data.hashCode();
  }

  @Override
  public String toString() {
    return "EngineIoPacket{" + type + ", " + data + "}";
  }
}
