package dev.svc.chat.internal.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class RoomLedgersTest {
  @Test
  void theRoomsCanBeWalkedWhileEachIsLookedUp() {
    RoomLedgers ledgers = new RoomLedgers();
    for (String id : new String[] {"a", "b", "c"}) ledgers.put(new RoomLedger(id, 0, 0, RoomState.LIVE));
    List<String> walked = new ArrayList<>();
    for (RoomLedger room : ledgers.all()) {
      ledgers.get("a"); // a look-up counts as activity: it reorders the map
      walked.add(room.roomId);
    }
    assertEquals(3, walked.size());
  }

  @Test
  void aRoomMayMoveOnlyAsItsStateTableSays() {
    RoomLedger room = new RoomLedger("r", 0, 0, RoomState.LIVE);
    room.moveTo(RoomState.QUEUED);
    room.moveTo(RoomState.CATCHING_UP);
    org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> room.moveTo(RoomState.UNSTARTED));
    room.moveTo(RoomState.LIVE);
  }
}
