package dev.svc.chat.internal.realtime;

import dev.svc.chat.transport.TransportSocket;

/** Sockets that are never opened, for the inbound gate's tests: only how a transport waits matters. */
final class GateSockets {
  /** A socket of a transport that defers a frame instead of holding its thread (the JDK's). */
  static final TransportSocket DEFERRING = new Stub(true);
  /** A socket of a transport whose reader thread the gate may hold (OkHttp's). */
  static final TransportSocket HOLDING = new Stub(false);

  private GateSockets() {
  }

  private static final class Stub implements TransportSocket {
    private final boolean defers;

    Stub(boolean defers) {
      this.defers = defers;
    }

    @Override
    public boolean send(String text) {
      return true;
    }

    @Override
    public long queueSize() {
      return 0;
    }

    @Override
    public boolean close(int code, String reason) {
      return true;
    }

    @Override
    public void cancel() {
    }

    @Override
    public boolean deferText(long delayMillis) {
      return defers;
    }
  }
}
