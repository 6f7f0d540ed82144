package dev.svc.chat.internal.realtime;

import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.internal.socketio.SocketIoPacket;

/** What the engine reports to its client. Invoked on the actor thread: implementations must only hand off. */
public interface EngineListener {
  /** The connection state changed. */
  void onStateChange(ConnectionStateChange change);

  /** The gateway sent an EVENT on the default namespace. */
  void onServerEvent(SocketIoPacket event);
}
