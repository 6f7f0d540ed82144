package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandshakeSlotsTest {

  /** A connection that is never opened: only its handshake slot is used. */
  private static GatewayConnection conn(int id) {
    return new GatewayConnection(id, null, null, null, null, null);
  }

  @Test
  void slotsAreTakenUpToTheLimitThenHandedToWaitersInOrder() {
    HandshakeSlots slots = new HandshakeSlots(2);
    List<String> granted = new ArrayList<>();
    assertTrue(slots.tryAcquireOr(() -> granted.add("a")));
    assertTrue(slots.tryAcquireOr(() -> granted.add("b")));
    assertFalse(slots.tryAcquireOr(() -> granted.add("c")));
    assertFalse(slots.tryAcquireOr(() -> granted.add("d")));
    assertEquals(List.of(), granted, "a taken slot runs nothing; waiters wait");
    assertEquals(0, slots.free());

    slots.release();
    assertEquals(List.of("c"), granted, "a released slot goes to the longest waiter");
    assertEquals(0, slots.free());
    slots.release();
    assertEquals(List.of("c", "d"), granted);
    slots.release();
    slots.release();
    assertEquals(2, slots.free(), "with nobody waiting, released slots are free again");
  }

  @Test
  void aGrantWhoseActorIsShutDownGivesTheSlotBack() {
    HandshakeSlots slots = new HandshakeSlots(1);
    VirtualScheduler stopped = new VirtualScheduler();
    stopped.shutdown();
    assertTrue(slots.tryAcquire(conn(1), stopped, () -> { }));
    assertFalse(slots.tryAcquire(conn(2), stopped, () -> { }));
    slots.release(); // handed to the waiter, whose actor drops the task: the slot must come back
    assertEquals(1, slots.free());
  }

  @Test
  void aGrantToAConnectionDroppedWhileItWaitedGivesTheSlotBackAndOpensNothing() {
    HandshakeSlots slots = new HandshakeSlots(1);
    VirtualScheduler actor = new VirtualScheduler();
    GatewayConnection first = conn(1);
    GatewayConnection waiting = conn(2);
    List<String> opened = new ArrayList<>();
    assertTrue(slots.tryAcquire(first, actor, () -> opened.add("first")));
    assertFalse(slots.tryAcquire(waiting, actor, () -> opened.add("waiting")));
    waiting.abandoned = true; // the client was closed while its connection waited
    first.releaseSlot(); // accepted: the slot is handed to the waiter, which no longer wants it
    assertEquals(1, slots.free());
    waiting.releaseSlot(); // the abandonment's own release finds nothing held: no second slot
    assertEquals(1, slots.free());
    assertEquals(List.of(), opened);
  }

  @Test
  void oneReleasePastManyDroppedWaitersDoesNotRecurse() {
    HandshakeSlots slots = new HandshakeSlots(1);
    VirtualScheduler actor = new VirtualScheduler();
    List<String> opened = new ArrayList<>();
    assertTrue(slots.tryAcquire(conn(0), actor, () -> opened.add("first")));
    for (int i = 1; i <= 50_000; i++) {
      GatewayConnection dropped = conn(i);
      assertFalse(slots.tryAcquire(dropped, actor, () -> opened.add("dropped")));
      dropped.abandoned = true; // a fleet closing while its connections wait
    }
    slots.release(); // passes the slot down 50,000 dropped waiters: must not overflow the stack
    assertEquals(1, slots.free(), "nobody kept the slot: it is free again");
    assertEquals(List.of(), opened);
  }
}
