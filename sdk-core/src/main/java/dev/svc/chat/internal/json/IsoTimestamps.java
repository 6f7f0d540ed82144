package dev.svc.chat.internal.json;

/**
 * Parses and formats the wire's ISO-8601 UTC timestamps ({@code 2026-11-21T10:00:00.000Z}) as epoch
 * milliseconds. Written by hand because {@code java.time} is not on Android API 24.
 */
public final class IsoTimestamps {
  /** The first instant {@link #format} can write: 0000-01-01T00:00:00.000Z. */
  static final long MIN_MILLIS = -62_167_219_200_000L;
  /** The last instant {@link #format} can write: 9999-12-31T23:59:59.999Z. */
  static final long MAX_MILLIS = 253_402_300_799_999L;

  private IsoTimestamps() {
  }

  /** Returns whether {@link #format} can write {@code epochMillis} (years 0000 to 9999 in UTC). */
  static boolean inRange(long epochMillis) {
    return epochMillis >= MIN_MILLIS && epochMillis <= MAX_MILLIS;
  }

  /**
   * Returns the epoch milliseconds of {@code text}: {@code YYYY-MM-DDTHH:MM:SS}, optional fraction of 1 to 9
   * digits (truncated to millis), then {@code Z} or an offset {@code +HH:MM} / {@code -HH:MM}; in UTC, a year
   * from 0000 to 9999 (what {@link #format} writes).
   *
   * @throws IllegalArgumentException if the text is not such a timestamp
   */
  public static long parse(String text) {
    return parse(text.toCharArray(), 0, text.length());
  }

  /**
   * Returns the epoch milliseconds of the timestamp in {@code s} from {@code from} to {@code to} (exclusive), as
   * {@link #parse(String)} does, without making a String of it.
   *
   * @throws IllegalArgumentException if those characters are not such a timestamp
   */
  public static long parse(char[] s, int from, int to) {
    int n = to - from;
    if (n < 20 || s[from + 4] != '-' || s[from + 7] != '-'
        || (s[from + 10] != 'T' && s[from + 10] != 't')
        || s[from + 13] != ':' || s[from + 16] != ':') {
      throw invalid(s, from, to);
    }
    int year = digits(s, from, 0, 4, to);
    int month = digits(s, from, 5, 7, to);
    int day = digits(s, from, 8, 10, to);
    int hour = digits(s, from, 11, 13, to);
    int minute = digits(s, from, 14, 16, to);
    int second = digits(s, from, 17, 19, to);
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)
        || hour > 23 || minute > 59 || second > 60) {
      throw invalid(s, from, to);
    }
    int i = 19;
    int millis = 0;
    if (s[from + i] == '.') {
      int start = ++i;
      while (i < n && isDigit(s[from + i])) i++;
      int count = i - start;
      if (count < 1 || count > 9) throw invalid(s, from, to);
      for (int k = 0; k < 3; k++) {
        millis = millis * 10 + (k < count ? s[from + start + k] - '0' : 0);
      }
    }
    if (i >= n) throw invalid(s, from, to);
    long offsetMinutes;
    char c = s[from + i];
    if ((c == 'Z' || c == 'z') && i == n - 1) {
      offsetMinutes = 0;
    } else if ((c == '+' || c == '-') && i + 6 == n && s[from + i + 3] == ':') {
      int oh = digits(s, from, i + 1, i + 3, to);
      int om = digits(s, from, i + 4, i + 6, to);
      if (oh > 23 || om > 59) throw invalid(s, from, to);
      offsetMinutes = (c == '+' ? 1 : -1) * (oh * 60L + om);
    } else {
      throw invalid(s, from, to);
    }
    long days = daysFromCivil(year, month, day);
    long secs = days * 86_400L + hour * 3_600L + minute * 60L + Math.min(second, 59) - offsetMinutes * 60L;
    long epochMillis = secs * 1000L + millis;
    if (!inRange(epochMillis)) throw invalid(s, from, to); // an offset moved it out of years 0000 to 9999
    return epochMillis;
  }

  /** Returns {@code epochMillis} as {@code YYYY-MM-DDTHH:MM:SS.mmmZ} in UTC. */
  public static String format(long epochMillis) {
    long days = Math.floorDiv(epochMillis, 86_400_000L);
    long msOfDay = Math.floorMod(epochMillis, 86_400_000L);
    long z = days + 719_468L;
    long era = (z >= 0 ? z : z - 146_096L) / 146_097L;
    long doe = z - era * 146_097L;
    long yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long day = doy - (153 * mp + 2) / 5 + 1;
    long month = mp < 10 ? mp + 3 : mp - 9;
    long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    if (year < 0 || year > 9999) throw new IllegalArgumentException("year out of range: " + year);
    StringBuilder sb = new StringBuilder(24);
    pad(sb, year, 4).append('-');
    pad(sb, month, 2).append('-');
    pad(sb, day, 2).append('T');
    pad(sb, msOfDay / 3_600_000L, 2).append(':');
    pad(sb, (msOfDay / 60_000L) % 60, 2).append(':');
    pad(sb, (msOfDay / 1_000L) % 60, 2).append('.');
    pad(sb, msOfDay % 1_000L, 3).append('Z');
    return sb.toString();
  }

  static long daysFromCivil(long year, int month, int day) {
    long y = month <= 2 ? year - 1 : year;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146_097L + doe - 719_468L;
  }

  private static int daysInMonth(int year, int month) {
    switch (month) {
      case 2:
        boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        return leap ? 29 : 28;
      case 4: case 6: case 9: case 11:
        return 30;
      default:
        return 31;
    }
  }

  /** The number in the digits of {@code s} at {@code base + from} to {@code base + to}, within the text's {@code end}. */
  private static int digits(char[] s, int base, int from, int to, int end) {
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = s[base + i];
      if (!isDigit(c)) throw invalid(s, base, end);
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static StringBuilder pad(StringBuilder sb, long value, int width) {
    String s = Long.toString(value);
    for (int i = s.length(); i < width; i++) sb.append('0');
    return sb.append(s);
  }

  private static IllegalArgumentException invalid(char[] s, int from, int to) {
    return new IllegalArgumentException("not an ISO-8601 UTC timestamp: " + new String(s, from, to - from));
  }
}
