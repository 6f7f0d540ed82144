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
  /** Slots of {@link #cache}: a power of two. */
  private static final int CACHE_SLOTS = 64;
  /** Strings longer than this are never cached. */
  private static final int CACHE_MAX_LENGTH = 64;
  private static final char[] NONE = new char[0];

  /**
   * The frame's characters and a NUL after them: one bulk copy into a buffer this reader keeps, then plain
   * array reads (charAt checks coder and bounds each time). The NUL stops every scan at the frame's end.
   */
  private char[] s = NONE;
  private int i;
  /**
   * Strings that repeat from message to message (room and sender ids, part types, reactions), by a hash of
   * their characters: a repeat is the same String instance, so no copy, and its hash code is computed once
   * for every map the ledger keys by it. Strings are immutable, so sharing them between messages is safe.
   */
  private String[] cache;
  /** The characters of each cached string, compared without String.charAt. */
  private char[][] cacheChars;

  /**
   * A reader for one thread at a time (a connection's socket reader): it keeps its buffer and its cache of
   * repeated strings from one message to the next, both made at the first message (an idle client of a
   * fleet pays nothing). The messages it returns share nothing mutable.
   */
  public FastMessageReader() {
  }

  /**
   * Returns the message that starts at {@code start} in {@code frame} and is the last thing in it but the
   * closing {@code ]} of the event's arguments; null when this reader does not take it. A new reader each
   * call: for a stream of frames, keep one reader and call {@link #readMessage}.
   */
  public static Message read(String frame, int start) {
    return new FastMessageReader().readMessage(frame, start);
  }

  /** Same as {@link #read}, with this reader's buffer and cache; not thread-safe. */
  public Message readMessage(String frame, int start) {
    return read(frame, start, true);
  }

  /**
   * Returns the message that is the whole of {@code json} (as {@link MessageJsonAdapter} writes one, such as a
   * stored row); null when this reader does not take it. With this reader's buffer and cache; not thread-safe.
   */
  public Message readWhole(String json) {
    return read(json, 0, false);
  }

  private Message read(String text, int start, boolean inEvent) {
    if (start < 0) return null;
    int n = text.length();
    try {
      if (s.length <= n) s = new char[Math.max(n + 1, s.length + s.length / 2)];
      text.getChars(0, n, s, 0);
      s[n] = 0;
      i = start;
      Message m = message();
      if (m == null) return null;
      return inEvent ? (i == n - 1 && s[i] == ']' ? m : null) : (i == n ? m : null);
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
          b.roomId(nonEmptyCached());
          seen |= 2;
          break;
        case "seq":
          b.seq(atLeast(1));
          seen |= 4;
          break;
        case "senderId":
          b.senderId(nonEmptyCached());
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
          if (takeKey("type")) {
            type = takeNull() ? null : cachedString();
          } else if (takeKey("text")) {
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
      String emoji = cachedString();
      if (emoji == null || !take(':') || !take('[')) return false;
      List<String> users = new ArrayList<>();
      if (!take(']')) {
        do {
          String u = cachedString();
          if (u == null) return false;
          users.add(u);
        } while (take(','));
        if (!take(']')) return false;
      }
      b.reaction(emoji, users);
    } while (take(','));
    return take('}');
  }

  /** A field name: one of the Message's (the constant itself, for the switch), or any other. */
  private String name() {
    if (s[i] != '"') return null;
    int start = i + 1;
    int end = start;
    while (s[end] != '"') {
      if (s[end] < 0x20) return null; // the frame's end (NUL) or a control character
      end++;
    }
    String known = known(start, end - start);
    if (known != null) {
      i = end + 1;
      return known;
    }
    return string();
  }

  /** The Message field named by the {@code length} characters at {@code at}, or null: by length, then one char. */
  private String known(int at, int length) {
    String candidate;
    switch (length) {
      case 2:
        candidate = "id";
        break;
      case 3:
        candidate = s[at] == 's' ? "seq" : "rev";
        break;
      case 5:
        candidate = "parts";
        break;
      case 6:
        candidate = "roomId";
        break;
      case 8:
        candidate = s[at] == 's' ? "senderId" : "editedAt";
        break;
      case 9:
        candidate = s[at] == 'c' ? "createdAt" : s[at] == 'd' ? "deletedAt" : "reactions";
        break;
      case 15:
        candidate = "clientMessageId";
        break;
      default:
        return null;
    }
    return matches(at, candidate) ? candidate : null;
  }

  /** Takes {@code "word":}, the name of a part's field, if it is next. */
  private boolean takeKey(String word) {
    int n = word.length();
    if (s[i] != '"' || !matches(i + 1, word) || s[i + 1 + n] != '"' || s[i + 2 + n] != ':') return false;
    i += n + 3;
    return true;
  }

  private boolean matches(int at, char[] word) {
    for (int k = 0, n = word.length; k < n; k++) {
      if (s[at + k] != word[k]) return false;
    }
    return true;
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
    int end = stringEnd();
    if (end < 0) return null;
    int start = i + 1;
    i = end + 1;
    return new String(s, start, end - start);
  }

  /** Same as {@link #string}, as the cached instance when the same characters were read before. */
  private String cachedString() {
    int end = stringEnd();
    if (end < 0) return null;
    int start = i + 1;
    i = end + 1;
    int length = end - start;
    if (length > CACHE_MAX_LENGTH) return new String(s, start, length);
    int h = 0;
    for (int k = start; k < end; k++) h = 31 * h + s[k];
    int slot = (h ^ (h >>> 16)) & (CACHE_SLOTS - 1);
    if (cache == null) {
      cache = new String[CACHE_SLOTS];
      cacheChars = new char[CACHE_SLOTS][];
    }
    char[] known = cacheChars[slot];
    if (known != null && known.length == length && matches(start, known)) return cache[slot];
    String v = new String(s, start, length);
    cache[slot] = v;
    cacheChars[slot] = v.toCharArray();
    return v;
  }

  /** Where the string at {@link #i} ends (its closing quote), or -1 when this reader does not take it. */
  private int stringEnd() {
    if (s[i] != '"') return -1;
    int j = i + 1;
    while (true) {
      char c = s[j];
      if (c == '"') return j;
      if (c == '\\' || c < 0x20) return -1;
      j++;
    }
  }

  private String nonEmpty() {
    String v = string();
    if (v == null || v.isEmpty()) throw new IllegalArgumentException("not a non-empty string");
    return v;
  }

  private String nonEmptyCached() {
    String v = cachedString();
    if (v == null || v.isEmpty()) throw new IllegalArgumentException("not a non-empty string");
    return v;
  }

  /** An integer of at most 18 digits, without a leading zero. */
  private long integer() {
    boolean negative = take('-');
    int start = i;
    long v = 0;
    while (true) {
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
