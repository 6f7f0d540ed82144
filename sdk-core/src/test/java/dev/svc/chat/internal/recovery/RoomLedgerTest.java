package dev.svc.chat.internal.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.Message;
import org.junit.jupiter.api.Test;

class RoomLedgerTest {
  @Test
  void revisionsInOrderMoveTheWatermarkAndOutOfOrderOnesAreTrackedUntilTheGapCloses() {
    RoomLedger room = new RoomLedger("r1", 0, 0, RoomState.LIVE);
    room.markApplied("a", 1); // the next revision: the watermark moves
    room.markApplied("b", 2);
    assertEquals(2, room.rev);
    assertTrue(room.applied("a", 1));
    assertTrue(room.applied("x", 2)); // at or below the watermark: applied, whatever the message
    assertFalse(room.applied("c", 3));
    assertFalse(room.hasRevisionGap());

    room.markApplied("d", 5); // out of order: 3 and 4 are missing
    assertEquals(2, room.rev);
    assertTrue(room.hasRevisionGap());
    assertTrue(room.applied("d", 5));
    assertFalse(room.applied("c", 3));
    room.markApplied("c", 3); // the next revision while a later one is held: it moves, and stops at the gap
    assertEquals(3, room.rev);
    assertTrue(room.hasRevisionGap());
    room.markApplied("a", 4); // closes the gap: the watermark reaches 5
    assertEquals(5, room.rev);
    assertFalse(room.hasRevisionGap());
    assertTrue(room.applied("d", 5));
    assertFalse(room.applied("d", 6));

    room.markApplied("a", 2); // a repeat below the watermark changes nothing
    assertEquals(5, room.rev);
    room.markApplied("e", 6);
    assertEquals(6, room.rev);
  }

  @Test
  void aMessageIsMarkedAsItsIdAndRevisionAre() {
    RoomLedger room = new RoomLedger("r1", 0, 0, RoomState.LIVE);
    room.markApplied(message("a", 1)); // in order: only the watermark moves
    assertEquals(1, room.rev);
    room.markApplied(message("c", 3)); // out of order: recorded by its id
    assertEquals(1, room.rev);
    assertTrue(room.applied("c", 3));
    assertFalse(room.applied("c", 4));
    assertFalse(room.applied("b", 2));
    room.markApplied(message("b", 2));
    assertEquals(3, room.rev);
    assertFalse(room.hasRevisionGap());
  }

  private static Message message(String id, long rev) {
    return Message.builder().id(id).roomId("r1").seq(rev).rev(rev).senderId("bob").clientMessageId("c-" + id)
        .createdAt(0).build();
  }
}
