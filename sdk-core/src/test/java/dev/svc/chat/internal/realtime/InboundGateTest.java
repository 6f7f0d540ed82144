package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.svc.chat.transport.TransportSocket;
import org.junit.jupiter.api.Test;

/** The inbound gate's wait (parked or deferred) belongs to the connection whose frame waits. */
class InboundGateTest {
  /** A connection that is never opened: only what the gate reads of it is used. */
  private static GatewayConnection conn(int id) {
    return new GatewayConnection(id, null, null, null, null, null);
  }

  /** A socket of a transport that defers a frame instead of holding its thread (the JDK's). */
  private static final TransportSocket DEFERRING = new TransportSocket() {
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
      return true;
    }
  };

  /**
   * A frame of connection A is deferred, then A is abandoned: its reader never hands the frame to the gate again.
   * Connection B's first event, with a backlog between the water marks, passes: A's old deadline does not shed it.
   */
  @Test
  void anAbandonedConnectionsDeferredFrameLeavesNoWaitForTheNextConnection() {
    AtomicInteger backlog = new AtomicInteger(InboundGate.HIGH_WATER);
    AtomicLong now = new AtomicLong(1_000);
    InboundGate gate = new InboundGate(backlog::get, now::get, true);
    GatewayConnection a = conn(1);
    GatewayConnection b = conn(2);
    assertEquals(InboundGate.DEFERRED, gate.admit(a, DEFERRING, true), "A's frame waits");
    a.abandoned = true;
    now.addAndGet(a.parkLimitMillis + 1);
    backlog.set(600);
    assertEquals(InboundGate.ADMIT, gate.admit(b, DEFERRING, true), "B's first event, below the high water mark");
  }

  /** A connection's own deferred frame is still shed once its wait passed the park limit. */
  @Test
  void aDeferredFrameIsShedPastItsConnectionsParkLimit() {
    AtomicInteger backlog = new AtomicInteger(InboundGate.HIGH_WATER);
    AtomicLong now = new AtomicLong(1_000);
    InboundGate gate = new InboundGate(backlog::get, now::get, true);
    GatewayConnection a = conn(1);
    assertEquals(InboundGate.DEFERRED, gate.admit(a, DEFERRING, true));
    now.addAndGet(a.parkLimitMillis);
    backlog.set(600);
    assertEquals(InboundGate.SHED, gate.admit(a, DEFERRING, true));
    assertEquals(InboundGate.ADMIT, gate.admit(a, DEFERRING, false), "only sheddable events are shed");
  }
}
