package dev.svc.chat.internal.json;

import java.util.ArrayList;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;

/**
 * Reads the commonest {@link Message}, as the gateway writes it, straight from a frame's characters: no
 * UTF-8 copy, no Moshi reader. It takes only what it can read exactly as {@link MessageJsonAdapter} would
 * (compact JSON, strings without escapes, integer numbers, parts of {@code type} and {@code text}, the
 * message as the event's only argument) and gives up, returning null, on anything else, valid or not:
 * then the adapter reads the frame, with its checks and its error messages. So it changes how fast a
 * message is read, never what is read or refused.
 */
public final class FastMessageReader {
  /** The frame's characters: one bulk copy, then plain array reads (charAt checks coder and bounds each time). */
  private final char[] s;
  private int i;

  private FastMessageReader(char[] s, int start) {
    this.s = s;
    this.i = start;
  }

  /**
   * Returns the message that starts at {@code start} in {@code frame} and is the last thing in it but the
   * closing {@code ]} of the event's arguments; null when this reader does not take it.
   */
  public static Message read(String frame, int start) {
    if (start < 0) return null;
    try {
      FastMessageReader r = new FastMessageReader(frame.toCharArray(), start);
      Message m = r.message();
      return m != null && r.i == frame.length() - 1 && frame.charAt(r.i) == ']' ? m : null;
    } catch (RuntimeException e) {
      return null; // out of bounds, not a number, not a timestamp...: the adapter will say what is wrong
    }
  }

  private Message message() {
    if (!take('{')) return null;
    Message.Builder b = Message.builder();
    int seen = 0;
    if (take('}')) return null;
    do {
      String name = name();
      if (name == null || !take(':')) return null;
      switch (name) {
        case "id":
          b.id(nonEmpty());
          seen |= 1;
          break;
        case "roomId":
          b.roomId(nonEmpty());
          seen |= 2;
          break;
        case "seq":
          b.seq(atLeast(1));
          seen |= 4;
          break;
        case "senderId":
          b.senderId(nonEmpty());
          seen |= 8;
          break;
        case "parts":
          List<MessagePart> parts = parts();
          if (parts == null) return null;
          b.parts(parts);
          seen |= 16;
          break;
        case "clientMessageId":
          b.clientMessageId(nonEmpty());
          seen |= 32;
          break;
        case "createdAt":
          b.createdAt(IsoTimestamps.parse(nonEmpty()));
          seen |= 64;
          break;
        case "editedAt":
          b.editedAt(takeNull() ? null : IsoTimestamps.parse(nonEmpty()));
          break;
        case "deletedAt":
          b.deletedAt(takeNull() ? null : IsoTimestamps.parse(nonEmpty()));
          break;
        case "reactions":
          if (!takeNull() && !reactions(b)) return null;
          break;
        case "rev":
          if (!takeNull()) b.rev(atLeast(0));
          break;
        default:
          if (!skipValue(0)) return null;
      }
    } while (take(','));
    if (!take('}') || seen != 127) return null;
    return b.build();
  }

  private List<MessagePart> parts() {
    if (!take('[')) return null;
    List<MessagePart> parts = new ArrayList<>(2);
    if (take(']')) return parts;
    do {
      if (!take('{')) return null;
      String type = null;
      String text = null;
      if (!take('}')) {
        do {
          String name = string();
          if (name == null || !take(':')) return null;
          if (name.equals("type")) {
            type = takeNull() ? null : string();
          } else if (name.equals("text")) {
            if (takeNull()) {
              text = null;
            } else {
              text = string();
              if (text == null) return null;
            }
          } else {
            return null; // other fields are kept raw by the adapter
          }
        } while (take(','));
        if (!take('}')) return null;
      }
      if (type == null || type.isEmpty()) return null;
      parts.add(MessagePart.builder(type).text(text).build());
    } while (take(','));
    return take(']') ? parts : null;
  }

  private boolean reactions(Message.Builder b) {
    if (!take('{')) return false;
    if (take('}')) return true;
    do {
      String emoji = string();
      if (emoji == null || !take(':') || !take('[')) return false;
      List<String> users = new ArrayList<>();
      if (!take(']')) {
        do {
          String u = string();
          if (u == null) return false;
          users.add(u);
        } while (take(','));
        if (!take(']')) return false;
      }
      b.reaction(emoji, users);
    } while (take(','));
    return take('}');
  }

  private static final String[] NAMES = {"id", "roomId", "seq", "senderId", "parts", "clientMessageId",
      "createdAt", "editedAt", "deletedAt", "reactions", "rev"};

  /** A field name: one of {@link #NAMES} (the same instance, for the switch), or any other. */
  private String name() {
    if (s[i] != '"') return null;
    int start = i + 1;
    int end = start;
    while (s[end] != '"') end++;
    int length = end - start;
    for (String known : NAMES) {
      if (known.length() == length && matches(start, known)) {
        i = end + 1;
        return known;
      }
    }
    return string();
  }

  private boolean matches(int at, String word) {
    for (int k = 0, n = word.length(); k < n; k++) {
      if (s[at + k] != word.charAt(k)) return false;
    }
    return true;
  }

  /** Skips one value of a field this SDK does not read; false when this reader does not take it. */
  private boolean skipValue(int depth) {
    if (depth > 32) return false;
    char c = s[i];
    if (c == '"') return string() != null;
    if (c == '{' || c == '[') {
      char end = c == '{' ? '}' : ']';
      i++;
      if (take(end)) return true;
      do {
        if (c == '{' && (string() == null || !take(':'))) return false;
        if (!skipValue(depth + 1)) return false;
      } while (take(','));
      return take(end);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      integer();
      return true;
    }
    return literal("null") || literal("true") || literal("false");
  }

  /** A string without escapes or control characters; null (nothing consumed past it) otherwise. */
  private String string() {
    if (s[i] != '"') return null;
    int start = i + 1;
    int j = start;
    while (true) {
      char c = s[j];
      if (c == '"') break;
      if (c == '\\' || c < 0x20) return null;
      j++;
    }
    i = j + 1;
    return new String(s, start, j - start);
  }

  private String nonEmpty() {
    String v = string();
    if (v == null || v.isEmpty()) throw new IllegalArgumentException("not a non-empty string");
    return v;
  }

  /** An integer of at most 18 digits, without a leading zero. */
  private long integer() {
    boolean negative = take('-');
    int start = i;
    long v = 0;
    while (i < s.length) {
      char c = s[i];
      if (c < '0' || c > '9') break;
      v = v * 10 + (c - '0');
      i++;
    }
    int digits = i - start;
    if (digits == 0 || digits > 18 || (digits > 1 && s[start] == '0')) {
      throw new IllegalArgumentException("not an integer");
    }
    char next = s[i];
    if (next != ',' && next != '}' && next != ']') throw new IllegalArgumentException("not an integer");
    return negative ? -v : v;
  }

  private long atLeast(long min) {
    if (s[i] == '-') throw new IllegalArgumentException("negative");
    long v = integer();
    if (v < min) throw new IllegalArgumentException("below " + min);
    return v;
  }

  private boolean takeNull() {
    return literal("null");
  }

  private boolean literal(String word) {
    if (!matches(i, word)) return false;
    char next = s[i + word.length()];
    if (next != ',' && next != '}' && next != ']') return false;
    i += word.length();
    return true;
  }

  private boolean take(char c) {
    if (s[i] != c) return false;
    i++;
    return true;
  }
}
