package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.StallingGateway;
import org.junit.jupiter.api.Test;

/**
 * A socket that stalls inside a frame (TCP open, the frame never finished, no ping) is found by the engine's
 * heartbeat watchdog within {@code pingInterval + pingTimeout}, its socket cancelled (the reader thread, which
 * waits for the rest of the frame without a read timeout, is released) and the connection replaced. OkHttp's read
 * timeout is off on the SDK's WebSocket client, so this watchdog is the only detector of such a stall.
 */
class StalledSocketTest {
  private static final long PING_INTERVAL = 300;
  private static final long PING_TIMEOUT = 300;

  @Test
  void aSocketStalledMidFrameIsDetectedByThePingTimeoutClosedAndReplaced() throws Exception {
    try (StallingGateway gateway = new StallingGateway(PING_INTERVAL, PING_TIMEOUT);
        ChatClient c = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false)
            .reconnectDelay(1, 1).build())) {
      EventRecorder states = EventRecorder.attach(c);
      Await.value(c.connect("alice", "good-jwt"));
      states.assertNextState(ConnectionState.CONNECTING);
      states.assertNextState(ConnectionState.CONNECTED);
      assertTrue(gateway.awaitStall(), "the gateway never stalled");
      states.assertNextState(ConnectionState.RECONNECTING, ConnectionReason.PING_TIMEOUT.code());
      assertTrue(gateway.awaitStalledSocketClosed(), "the client never closed the stalled socket");
      // the watchdog was armed at the OPEN, before the stall: the close comes at most that long after the stall
      // (plus the time the machine takes to run the timer)
      long millis = gateway.millisToClose();
      assertTrue(millis >= 0 && millis < PING_INTERVAL + PING_TIMEOUT + 10_000,
          "closed " + millis + " ms after the stall");
      assertTrue(gateway.awaitReconnect(), "the client never opened another connection");
    }
  }
}
