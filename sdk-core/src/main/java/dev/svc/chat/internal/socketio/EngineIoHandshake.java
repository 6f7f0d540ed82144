package dev.svc.chat.internal.socketio;

/** The server's Engine.IO OPEN packet: {@code 0{"sid","upgrades","pingInterval","pingTimeout","maxPayload"}}. */
public final class EngineIoHandshake {
  /** The Engine.IO session id. */
  public final String sid;
  /** How often the server pings. */
  public final long pingIntervalMillis;
  /** How long after a ping's due time the server may still be heard from. */
  public final long pingTimeoutMillis;
  /** The largest frame, in UTF-8 bytes, the server accepts. */
  public final long maxPayload;

  /** Creates a handshake. */
  public EngineIoHandshake(String sid, long pingIntervalMillis, long pingTimeoutMillis, long maxPayload) {
    this.sid = sid;
    this.pingIntervalMillis = pingIntervalMillis;
    this.pingTimeoutMillis = pingTimeoutMillis;
    this.maxPayload = maxPayload;
  }

  @Override
  public String toString() {
    return "EngineIoHandshake{sid=" + sid + ", pingInterval=" + pingIntervalMillis + ", pingTimeout="
        + pingTimeoutMillis + ", maxPayload=" + maxPayload + "}";
  }
}
