package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandshakeSlotsTest {

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
    assertTrue(slots.tryAcquire(stopped, () -> { }));
    assertFalse(slots.tryAcquire(stopped, () -> { }));
    slots.release(); // handed to the waiter, whose actor drops the task: the slot must come back
    assertEquals(1, slots.free());
  }
}
