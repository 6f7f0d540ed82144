package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;

class IsoTimestampsTest {
  /**
   * Found by fuzzing (JsonAdaptersFuzzTest): what is read is what {@link IsoTimestamps#format} can write, years
   * 0000 to 9999 in UTC; an offset must not carry a timestamp out of them.
   */
  @Test
  void refusesTimestampsOutsideTheYearsItCanWrite() {
    assertThrows(IllegalArgumentException.class, () -> IsoTimestamps.parse("0000-01-01T00:00:00+01:00"));
    assertThrows(IllegalArgumentException.class, () -> IsoTimestamps.parse("9999-12-31T23:59:59-00:01"));
    assertEquals("0000-01-01T00:00:00.000Z", IsoTimestamps.format(IsoTimestamps.parse("0000-01-01T00:00:00Z")));
    assertEquals("9999-12-31T23:59:59.999Z", IsoTimestamps.format(IsoTimestamps.parse("9999-12-31T23:59:59.999Z")));
  }

  @Test
  void parsesTheWireFormat() {
    assertEquals(Instant.parse("2026-11-21T10:00:00.000Z").toEpochMilli(),
        IsoTimestamps.parse("2026-11-21T10:00:00.000Z"));
    assertEquals(0L, IsoTimestamps.parse("1970-01-01T00:00:00.000Z"));
    assertEquals(-1L, IsoTimestamps.parse("1969-12-31T23:59:59.999Z"));
    assertEquals(951_782_400_000L, IsoTimestamps.parse("2000-02-29T00:00:00Z"));
  }

  @Test
  void acceptsOtherFractionsAndOffsets() {
    long t = Instant.parse("2026-11-21T10:00:00.123Z").toEpochMilli();
    assertEquals(t, IsoTimestamps.parse("2026-11-21T10:00:00.123456789Z"));
    assertEquals(t - 123 + 100, IsoTimestamps.parse("2026-11-21T10:00:00.1Z"));
    assertEquals(t, IsoTimestamps.parse("2026-11-21T11:30:00.123+01:30"));
    assertEquals(t, IsoTimestamps.parse("2026-11-21T05:00:00.123-05:00"));
  }

  @Test
  void formatsWithMillis() {
    assertEquals("2026-11-21T10:00:00.000Z", IsoTimestamps.format(IsoTimestamps.parse("2026-11-21T10:00:00.000Z")));
    assertEquals("1970-01-01T00:00:00.000Z", IsoTimestamps.format(0));
    assertEquals("1969-12-31T23:59:59.999Z", IsoTimestamps.format(-1));
  }

  @Test
  void agreesWithJavaTimeOnRandomInstants() {
    Random random = new Random(42);
    for (int i = 0; i < 10_000; i++) {
      long millis = (long) (random.nextDouble() * 8_000_000_000_000L) - 1_000_000_000_000L;
      String expected = Instant.ofEpochMilli(millis).toString();
      String formatted = IsoTimestamps.format(millis);
      assertEquals(millis, IsoTimestamps.parse(formatted), formatted);
      assertEquals(millis, Instant.parse(formatted).toEpochMilli(), formatted + " vs " + expected);
    }
  }

  @Test
  void rejectsMalformedTimestamps() {
    String[] bad = {"", "2026-11-21", "2026-11-21T10:00:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
        "2026-11-21T24:00:00Z", "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00.000", "2026-11-21 10:00:00Z",
        "2026-11-21T10:00:00+0100", "20x6-11-21T10:00:00Z", "2026-11-21T10:00:00.0000000000Z"};
    for (String b : bad) assertThrows(IllegalArgumentException.class, () -> IsoTimestamps.parse(b), b);
  }

  @Test
  void parsesATimestampInPlaceWithinLongerText() {
    String[] good = {"2026-11-21T10:00:00.000Z", "2026-11-21T10:00:00Z", "2026-11-21T10:00:00.123456789+05:30",
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z"};
    for (String g : good) {
      // digits and a 'Z' on both sides: the parse must read from `from` to `to` and nothing else
      char[] text = ("9\"" + g + "\"Z9").toCharArray();
      assertEquals(IsoTimestamps.parse(g), IsoTimestamps.parse(text, 2, 2 + g.length()), g);
    }
    String[] bad = {"", "2026-11-21", "2026-11-21T10:00:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
        "2026-11-21T24:00:00Z", "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00.000", "2026-11-21 10:00:00Z",
        "2026-11-21T10:00:00+0100", "20x6-11-21T10:00:00Z", "2026-11-21T10:00:00.0000000000Z",
        "0000-01-01T00:00:00+01:00"};
    for (String b : bad) {
      // what follows the slice would complete some of them: it must not be read
      char[] text = ("\"" + b + "Z.000Z\"").toCharArray();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> IsoTimestamps.parse(text, 1, 1 + b.length()), b);
      assertEquals("not an ISO-8601 UTC timestamp: " + b, e.getMessage());
    }
  }
}
