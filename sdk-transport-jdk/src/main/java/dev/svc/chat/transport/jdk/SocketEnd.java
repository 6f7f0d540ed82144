package dev.svc.chat.transport.jdk;

import dev.svc.chat.transport.TransportListener;
import org.jspecify.annotations.Nullable;

/** The end of a {@link JdkSocket}, for its listener: the peer's close, or a failure. */
final class SocketEnd {
  private final @Nullable Throwable error;
  private final int code;
  private final String reason;

  SocketEnd(int code, String reason) {
    this.error = null;
    this.code = code;
    this.reason = reason;
  }

  SocketEnd(Throwable error, int httpStatus) {
    this.error = error;
    this.code = httpStatus;
    this.reason = "";
  }

  void tell(JdkSocket socket, TransportListener listener) {
    if (error != null) {
      listener.onFailure(socket, error, code);
    } else {
      listener.onClosing(socket, code, reason);
      listener.onClosed(socket, code, reason);
    }
  }
}
