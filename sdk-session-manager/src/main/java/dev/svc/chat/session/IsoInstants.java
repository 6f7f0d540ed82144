package dev.svc.chat.session;

import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the session answer's ISO-8601 {@code expiresAt} ({@code 2026-11-21T10:00:00.000Z}, a fraction of 1 to
 * 9 digits, {@code Z} or an offset) as epoch milliseconds. {@code java.time} is not on Android API 24, and the
 * core's parser is internal to it.
 */
final class IsoInstants {
  private static final Pattern ISO =
      Pattern.compile("(\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2})(?:\\.(\\d{1,9}))?([Zz]|[+-]\\d{2}:\\d{2})");

  private IsoInstants() {
  }

  /** Returns the epoch milliseconds of {@code text}; throws IllegalArgumentException if it is no such time. */
  static long parse(String text) {
    Matcher m = ISO.matcher(text);
    if (!m.matches()) throw new IllegalArgumentException("not an ISO-8601 timestamp: " + text);
    String fraction = m.group(2) == null ? "000" : (m.group(2) + "00").substring(0, 3);
    String zone = m.group(3).equalsIgnoreCase("Z") ? "+00:00" : m.group(3);
    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", Locale.ROOT);
    format.setLenient(false);
    try {
      return format.parse(m.group(1).replace('t', 'T') + "." + fraction + zone).getTime();
    } catch (ParseException e) {
      throw new IllegalArgumentException("not an ISO-8601 timestamp: " + text, e);
    }
  }
}
