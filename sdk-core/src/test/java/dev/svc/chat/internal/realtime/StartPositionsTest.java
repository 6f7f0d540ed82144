package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StartPositionsTest {
  @Test
  void readsEachRoomsPositionAndTheServicesTime() {
    StartPositions p = StartPositions.parse("{\"sid\":\"s1\",\"svc\":{\"sendMessage\":true},\"rooms\":["
        + "{\"id\":\"r1\",\"seq\":12,\"rev\":40},{\"id\":\"r2\",\"seq\":0,\"rev\":0,\"later\":[1]}],"
        + "\"at\":\"2026-11-29T03:00:00.123Z\"}");
    assertTrue(p.given());
    assertEquals("[r1@12/40, r2@0/0]", p.rooms().toString());
    assertEquals(java.time.Instant.parse("2026-11-29T03:00:00.123Z").toEpochMilli(), p.at());
    assertFalse(p.handover());
    assertTrue(p.duringHandover().handover());
  }

  @Test
  void anAnswerWithoutRoomsGivesNoPositions() {
    assertFalse(StartPositions.parse("{\"sid\":\"s1\"}").given());
    assertFalse(StartPositions.parse(null).given());
    assertTrue(StartPositions.parse("{\"sid\":\"s1\",\"rooms\":[]}").given(), "a user in no room: an empty list");
  }

  @Test
  void aMalformedPositionMakesTheWholeListUnusableRatherThanStartingARoomAtAWrongPlace() {
    String[] bad = {
      "{\"rooms\":[{\"id\":\"r1\",\"seq\":-1,\"rev\":3}]}",
      "{\"rooms\":[{\"id\":\"r1\",\"rev\":3}]}",
      "{\"rooms\":[{\"seq\":1,\"rev\":3}]}",
      "{\"rooms\":[{\"id\":\"r1\",\"seq\":\"x\",\"rev\":3}]}",
      "{\"rooms\":[{\"id\":\"r1\",\"seq\":1.5,\"rev\":3}]}",
      "{\"rooms\":[{\"id\":\"r1\",\"seq\":1,\"rev\":3}",
      "{\"rooms\":{\"id\":\"r1\"}}",
      "not json",
    };
    for (String data : bad) assertFalse(StartPositions.parse(data).given(), data);
  }

  @Test
  void anUnreadableTimeLeavesThePositionsUsable() {
    StartPositions p = StartPositions.parse("{\"rooms\":[{\"id\":\"r1\",\"seq\":1,\"rev\":1}],\"at\":\"yesterday\"}");
    assertTrue(p.given());
    assertEquals(0, p.at());
  }
}
