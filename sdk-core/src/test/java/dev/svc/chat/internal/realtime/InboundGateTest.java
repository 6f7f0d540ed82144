package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/**
 * The inbound gate's wait (parked or deferred) belongs to the connection whose frame waits, and a parked reader
 * resumes as soon as the backlog is low, not at its next poll.
 */
class InboundGateTest {
  /** A connection that is never opened: only what the gate reads of it is used. */
  private static GatewayConnection conn(int id) {
    return new GatewayConnection(id, null, null, null, null, null);
  }

  /** A poll far longer than any test waits: only a wake can end the reader's wait in time. */
  private static final long NO_POLL = TimeUnit.MINUTES.toNanos(10);

  /** Admits one frame of {@code conn} on a thread of its own (a socket's reader), without shedding. */
  private static CompletableFuture<Integer> reader(InboundGate gate, GatewayConnection conn) {
    CompletableFuture<Integer> admitted = new CompletableFuture<>();
    Thread t = new Thread(() -> admitted.complete(gate.admit(conn, GateSockets.HOLDING, true)), "test-reader");
    t.setDaemon(true);
    t.start();
    return admitted;
  }

  /** Waits (with a deadline) until the gate's reader is parked in it. */
  private static void awaitParked(InboundGate gate) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!parkedIn(gate)) {
      if (System.nanoTime() > deadline) throw new AssertionError("the reader never parked in the gate");
      Thread.yield();
    }
  }

  private static boolean parkedIn(InboundGate gate) {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("test-reader") && LockSupport.getBlocker(t) == gate) return true;
    }
    return false;
  }

  /** The handlers catch up: the wake the gate asked for resumes the parked reader at once. */
  @Test
  void aParkedReaderResumesWhenTheHandlersCatchUp() throws Exception {
    AtomicInteger backlog = new AtomicInteger(InboundGate.HIGH_WATER);
    AtomicReference<Runnable> wake = new AtomicReference<>();
    InboundGate gate = new InboundGate(backlog::get, () -> 0, false, task -> wake.compareAndSet(null, task), NO_POLL);
    CompletableFuture<Integer> admitted = reader(gate, conn(1));
    awaitParked(gate);
    assertNotNull(wake.get(), "the gate asked to be woken once the handlers caught up");
    backlog.set(InboundGate.LOW_WATER - 1);
    wake.get().run(); // as the hub does on the callback thread that brought the count under the mark
    assertEquals(InboundGate.ADMIT, admitted.get(10, TimeUnit.SECONDS));
  }

  /** The actor takes the frames that held the reader: it resumes at once, though the handlers had no backlog. */
  @Test
  void aParkedReaderResumesWhenTheActorTakesTheFrames() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    InboundGate gate = new InboundGate(() -> 0, () -> 0, false, task -> {
      asked.incrementAndGet();
      return false;
    }, NO_POLL);
    for (int i = 0; i < InboundGate.HIGH_WATER; i++) gate.queued();
    CompletableFuture<Integer> admitted = reader(gate, conn(1));
    awaitParked(gate);
    gate.taken(InboundGate.HIGH_WATER - InboundGate.LOW_WATER + 1);
    assertEquals(InboundGate.ADMIT, admitted.get(10, TimeUnit.SECONDS));
    assertEquals(0, asked.get(), "no wake asked of handlers that have no backlog");
  }

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
    assertEquals(InboundGate.DEFERRED, gate.admit(a, GateSockets.DEFERRING, true), "A's frame waits");
    a.abandoned = true;
    now.addAndGet(a.parkLimitMillis + 1);
    backlog.set(600);
    assertEquals(InboundGate.ADMIT, gate.admit(b, GateSockets.DEFERRING, true), "B's first event, below the high water mark");
  }

  /** A connection's own deferred frame is still shed once its wait passed the park limit. */
  @Test
  void aDeferredFrameIsShedPastItsConnectionsParkLimit() {
    AtomicInteger backlog = new AtomicInteger(InboundGate.HIGH_WATER);
    AtomicLong now = new AtomicLong(1_000);
    InboundGate gate = new InboundGate(backlog::get, now::get, true);
    GatewayConnection a = conn(1);
    assertEquals(InboundGate.DEFERRED, gate.admit(a, GateSockets.DEFERRING, true));
    now.addAndGet(a.parkLimitMillis);
    backlog.set(600);
    assertEquals(InboundGate.SHED, gate.admit(a, GateSockets.DEFERRING, true));
    assertEquals(InboundGate.ADMIT, gate.admit(a, GateSockets.DEFERRING, false), "only sheddable events are shed");
  }
}
