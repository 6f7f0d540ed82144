package dev.svc.chat.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class IsoInstantsTest {
  @Test
  void readsTheFormsTheWireUses() {
    assertEquals(Instant.parse("2026-11-21T10:00:00Z").toEpochMilli(), IsoInstants.parse("2026-11-21T10:00:00Z"));
    assertEquals(Instant.parse("2026-11-21T10:00:00.123Z").toEpochMilli(), IsoInstants.parse("2026-11-21T10:00:00.123456789Z"));
    assertEquals(Instant.parse("2026-11-21T10:00:00.500Z").toEpochMilli(), IsoInstants.parse("2026-11-21T10:00:00.5Z"));
    assertEquals(Instant.parse("2026-11-21T08:30:00Z").toEpochMilli(), IsoInstants.parse("2026-11-21T10:00:00+01:30"));
  }

  @Test
  void refusesWhatIsNotATimestamp() {
    assertThrows(IllegalArgumentException.class, () -> IsoInstants.parse("2026-11-21"));
    assertThrows(IllegalArgumentException.class, () -> IsoInstants.parse("2026-13-21T10:00:00Z"));
    assertThrows(IllegalArgumentException.class, () -> IsoInstants.parse("2026-11-21T10:00:00.1234567890Z"));
  }
}
