package dev.svc.chat.internal.json;

import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.Collections;
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

  /** The Message's fields, by code: {@link #NAMES}{@code [code]} spells field {@code code}. */
  private static final int ID = 0;
  private static final int ROOM_ID = 1;
  private static final int SEQ = 2;
  private static final int SENDER_ID = 3;
  private static final int PARTS = 4;
  private static final int CLIENT_MESSAGE_ID = 5;
  private static final int CREATED_AT = 6;
  private static final int EDITED_AT = 7;
  private static final int DELETED_AT = 8;
  private static final int REACTIONS = 9;
  private static final int REV = 10;
  private static final int REPLY_TO_ID = 11;
  private static final int THREAD_ID = 12;
  private static final int MENTIONS = 13;
  /** A root's summary: this reader gives up on one that is not null (the adapter reads it). */
  private static final int THREAD = 14;
  /** A field of another name (skipped). */
  private static final int OTHER = 15;
  private static final char[][] NAMES = chars("id", "roomId", "seq", "senderId", "parts", "clientMessageId",
      "createdAt", "editedAt", "deletedAt", "reactions", "rev", "replyToId", "threadId", "mentions", "thread");
  private static final char[] TYPE = "type".toCharArray();
  private static final char[] TEXT = "text".toCharArray();
  private static final char[] NULL = "null".toCharArray();
  private static final char[] TRUE = "true".toCharArray();
  private static final char[] FALSE = "false".toCharArray();

  /**
   * The frame's characters and a NUL after them: one bulk copy into a buffer this reader keeps, then plain
   * array reads (charAt checks coder and bounds each time). The NUL stops every scan at the frame's end.
   */
  private char[] s = NONE;
  private int i;
  /**
   * The frame being read when it is a String (null otherwise, and between reads, so no frame is kept): a
   * string value is its substring, a copy of its bytes as they are, where a String of {@link #s}'s chars
   * would be compressed back to bytes char by char.
   */
  private String frame;
  /**
   * Strings that repeat from message to message (room and sender ids, part types, reactions), by a hash of
   * their characters: a repeat is the same String instance, so no copy, and its hash code is computed once
   * for every map the ledger keys by it. Strings are immutable, so sharing them between messages is safe.
   */
  private String[] cache;
  /** The characters of each cached string, compared without String.charAt. */
  private char[][] cacheChars;
  /**
   * The builder of the messages this reader reads, reused from one to the next: {@link Message.Builder#build}
   * copies what it holds (the parts into a list of the message's own), so a message shares nothing with it.
   * Every optional field is reset before each message and every required one must be read in that message
   * (the {@code seen} mask), so no field passes from one message to the next. It has no way to forget
   * reactions: after a message with some it is dropped, and the next message gets a new one.
   */
  private Message.Builder builder;

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
  public static Message read(CharSequence frame, int start) {
    return new FastMessageReader().readMessage(frame, start);
  }

  /** Same as {@link #read}, with this reader's buffer and cache; not thread-safe. */
  public Message readMessage(CharSequence frame, int start) {
    return read(frame, start, true);
  }

  /**
   * Returns the message that is the whole of {@code json} (as {@link MessageJsonAdapter} writes one, such as a
   * stored row); null when this reader does not take it. With this reader's buffer and cache; not thread-safe.
   */
  public Message readWhole(CharSequence json) {
    return read(json, 0, false);
  }

  private Message read(CharSequence text, int start, boolean inEvent) {
    if (start < 0) return null;
    int n = text.length();
    try {
      if (s.length <= n) s = new char[Math.max(n + 1, s.length + s.length / 2)];
      copy(text, n);
      s[n] = 0;
      i = start;
      frame = text instanceof String ? (String) text : null;
      Message m = message();
      if (m == null) return null;
      return inEvent ? (i == n - 1 && s[i] == ']' ? m : null) : (i == n ? m : null);
    } catch (RuntimeException e) {
      return null; // out of bounds, not a number, not a timestamp...: the adapter will say what is wrong
    } finally {
      frame = null;
    }
  }

  /** Copies the frame's {@code n} characters into {@link #s}: in bulk where its class allows. */
  private void copy(CharSequence text, int n) {
    if (text instanceof String) {
      ((String) text).getChars(0, n, s, 0);
    } else if (text instanceof StringBuilder) {
      ((StringBuilder) text).getChars(0, n, s, 0);
    } else if (text instanceof CharBuffer && ((CharBuffer) text).hasArray()) {
      CharBuffer b = (CharBuffer) text;
      System.arraycopy(b.array(), b.arrayOffset() + b.position(), s, 0, n);
    } else {
      for (int k = 0; k < n; k++) s[k] = text.charAt(k);
    }
  }

  private Message message() {
    if (!take('{')) return null;
    Message.Builder b = builder;
    if (b == null) {
      b = Message.builder();
      builder = b;
    } else {
      // the optional fields; parts are reset where they are read
      b.rev(0).editedAt(null).deletedAt(null).replyToId(null).threadId(null).thread(null)
          .mentions(Collections.<String>emptyList());
    }
    int seen = 0;
    if (take('}')) return null;
    do {
      int name = name();
      if (name < 0 || !take(':')) return null;
      switch (name) {
        case ID:
          b.id(nonEmpty());
          break;
        case ROOM_ID:
          b.roomId(nonEmptyCached());
          break;
        case SEQ:
          b.seq(atLeast(1));
          break;
        case SENDER_ID:
          b.senderId(nonEmptyCached());
          break;
        case PARTS:
          if (!parts(b)) return null;
          break;
        case CLIENT_MESSAGE_ID:
          b.clientMessageId(nonEmpty());
          break;
        case CREATED_AT:
          b.createdAt(timestamp());
          break;
        case EDITED_AT:
          b.editedAt(takeNull() ? null : timestamp());
          break;
        case DELETED_AT:
          b.deletedAt(takeNull() ? null : timestamp());
          break;
        case REACTIONS:
          if (!takeNull() && !reactions(b)) return null;
          break;
        case REV:
          if (!takeNull()) b.rev(atLeast(0));
          break;
        case REPLY_TO_ID:
          b.replyToId(takeNull() ? null : nonEmpty());
          break;
        case THREAD_ID:
          b.threadId(takeNull() ? null : nonEmptyCached());
          break;
        case MENTIONS:
          if (!takeNull() && !mentions(b)) return null;
          break;
        case THREAD:
          if (!takeNull()) return null;
          break;
        default:
          if (!skipValue(0)) return null;
      }
      seen |= 1 << name;
    } while (take(','));
    // required: id, roomId, seq, senderId, parts, clientMessageId, createdAt
    if (!take('}') || (seen & 127) != 127) return null;
    return b.build();
  }

  /** Adds the parts to {@code b}; false when this reader does not take them. */
  private boolean parts(Message.Builder b) {
    if (!take('[')) return false;
    b.parts(Collections.<MessagePart>emptyList()); // a repeated field: the last one counts
    if (take(']')) return true;
    do {
      if (!take('{')) return false;
      String type = null;
      String text = null;
      if (!take('}')) {
        do {
          if (takeKey(TYPE)) {
            type = takeNull() ? null : cachedString();
          } else if (takeKey(TEXT)) {
            if (takeNull()) {
              text = null;
            } else {
              text = string();
              if (text == null) return false;
            }
          } else {
            return false; // other fields are kept raw by the adapter
          }
        } while (take(','));
        if (!take('}')) return false;
      }
      if (type == null || type.isEmpty()) return false;
      b.addPart(MessagePart.builder(type).text(text).build());
    } while (take(','));
    return take(']');
  }

  private boolean mentions(Message.Builder b) {
    if (!take('[')) return false;
    if (take(']')) return true;
    List<String> users = new ArrayList<>(2);
    do {
      String u = cachedString();
      if (u == null) return false;
      users.add(u);
    } while (take(','));
    if (!take(']')) return false;
    b.mentions(users);
    return true;
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
      builder = null; // holds reactions now, which no setter clears: not reused
    } while (take(','));
    return take('}');
  }

  /** A field name: the code of one of the Message's, or {@link #OTHER}; -1 when this reader does not take it. */
  private int name() {
    if (s[i] != '"') return -1;
    int start = i + 1;
    int known = known(start);
    if (known >= 0) {
      i = start + NAMES[known].length + 1;
      return known;
    }
    int end = stringEnd();
    if (end < 0) return -1;
    i = end + 1;
    return OTHER;
  }

  /**
   * The code of the Message field whose name starts at {@code at} and is followed by its closing quote, or -1:
   * the candidate chosen by its first letters, then compared whole (the NUL after the frame stops a comparison
   * at its end).
   */
  private int known(int at) {
    int candidate;
    switch (s[at]) {
      case 'i':
        candidate = ID;
        break;
      case 'r':
        candidate = s[at + 1] == 'o' ? ROOM_ID : s[at + 2] == 'v' ? REV : s[at + 2] == 'p' ? REPLY_TO_ID : REACTIONS;
        break;
      case 't':
        candidate = s[at + 6] == 'I' ? THREAD_ID : THREAD; // "thread" then its quote, or "threadId"
        break;
      case 'm':
        candidate = MENTIONS;
        break;
      case 's':
        candidate = s[at + 2] == 'q' ? SEQ : SENDER_ID;
        break;
      case 'p':
        candidate = PARTS;
        break;
      case 'c':
        candidate = s[at + 1] == 'l' ? CLIENT_MESSAGE_ID : CREATED_AT;
        break;
      case 'e':
        candidate = EDITED_AT;
        break;
      case 'd':
        candidate = DELETED_AT;
        break;
      default:
        return -1;
    }
    char[] name = NAMES[candidate];
    return matches(at, name) && s[at + name.length] == '"' ? candidate : -1;
  }

  /** Takes {@code "word":}, the name of a part's field, if it is next. */
  private boolean takeKey(char[] word) {
    int n = word.length;
    if (s[i] != '"' || !matches(i + 1, word) || s[i + 1 + n] != '"' || s[i + 2 + n] != ':') return false;
    i += n + 3;
    return true;
  }

  /** Whether {@code word} is at {@code at}; the NUL after the frame stops a comparison at its end. */
  private boolean matches(int at, char[] word) {
    for (int k = 0, n = word.length; k < n; k++) {
      if (s[at + k] != word[k]) return false;
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
    return literal(NULL) || literal(TRUE) || literal(FALSE);
  }

  /** A string without escapes or control characters; null (nothing consumed past it) otherwise. */
  private String string() {
    int end = stringEnd();
    if (end < 0) return null;
    int start = i + 1;
    i = end + 1;
    return frame != null ? frame.substring(start, end) : new String(s, start, end - start);
  }

  /** Same as {@link #string}, as the cached instance when the same characters were read before. */
  private String cachedString() {
    if (s[i] != '"') return null;
    int start = i + 1;
    int end = start;
    int h = 0;
    while (true) { // the scan of stringEnd and the hash in one pass
      char c = s[end];
      if (c == '"') break;
      if (c == '\\' || c < 0x20) return null;
      h = 31 * h + c;
      end++;
    }
    i = end + 1;
    int length = end - start;
    if (length > CACHE_MAX_LENGTH) return new String(s, start, length);
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
    return literal(NULL);
  }

  private boolean literal(char[] word) {
    if (!matches(i, word)) return false;
    char next = s[i + word.length];
    if (next != ',' && next != '}' && next != ']') return false;
    i += word.length;
    return true;
  }

  /** A timestamp string, read in place (no String made of it). */
  private long timestamp() {
    int end = stringEnd();
    if (end < 0 || end == i + 1) throw new IllegalArgumentException("not a non-empty string");
    long v = IsoTimestamps.parse(s, i + 1, end);
    i = end + 1;
    return v;
  }

  private static char[][] chars(String... words) {
    char[][] out = new char[words.length][];
    for (int k = 0; k < words.length; k++) out[k] = words[k].toCharArray();
    return out;
  }

  private boolean take(char c) {
    if (s[i] != c) return false;
    i++;
    return true;
  }
}
