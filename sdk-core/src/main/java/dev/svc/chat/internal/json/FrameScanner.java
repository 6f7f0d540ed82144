package dev.svc.chat.internal.json;

import java.nio.CharBuffer;

/**
 * The tokens {@link FastMessageReader} reads, taken from a copy of one frame's characters: compact JSON, strings
 * without escapes or control characters, integers of at most 18 digits, ISO-8601 timestamps. A method that does
 * not take what is next returns null, false or -1, or throws an unchecked exception for a value it refuses; the
 * reader then gives the frame up to {@link MessageJsonAdapter}. One scanner serves one thread at a time.
 */
final class FrameScanner {
  /** Slots of {@link #cache}, in pairs (two-way): a power of two. */
  private static final int CACHE_SLOTS = 128;
  /** Strings longer than this are never cached. */
  private static final int CACHE_MAX_LENGTH = 64;
  private static final char[] NONE = new char[0];
  private static final char[] NULL = "null".toCharArray();
  private static final char[] TRUE = "true".toCharArray();
  private static final char[] FALSE = "false".toCharArray();

  /**
   * The frame's characters and a NUL after them: one bulk copy into a buffer this scanner keeps, then plain
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
   * Whether the frame is {@link #frame} and holds no backslash past the scan's start: then a string's closing
   * quote is found by {@link String#indexOf(int, int)}, and its characters are checked for controls alone.
   */
  private boolean quoteSearch;
  /**
   * Strings that repeat from message to message (room and sender ids, part types, reactions), by a hash of
   * their characters: a repeat is the same String instance, so no copy, and its hash code is computed once
   * for every map the ledger keys by it. Strings are immutable, so sharing them between messages is safe.
   */
  private String[] cache;
  /** The characters of each cached string, compared without String.charAt. */
  private char[][] cacheChars;

  /**
   * Copies the frame's characters into {@link #s}, a NUL after them, and places the scan at {@code start}. Call
   * {@link #release} when the frame is read.
   */
  void load(CharSequence text, int start) {
    int n = text.length();
    if (s.length <= n) s = new char[Math.max(n + 1, s.length + s.length / 2)];
    copy(text, n);
    s[n] = 0;
    i = start;
    frame = text instanceof String ? (String) text : null;
    // one search of the whole frame (String.indexOf: a vector loop in the JVM) instead of a test per character
    quoteSearch = frame != null && frame.indexOf('\\', start) < 0;
  }

  /** Drops the frame being read, so no frame is kept between reads. */
  void release() {
    frame = null;
    quoteSearch = false;
  }

  /** The frame being read when it is a String; null when it is another CharSequence (its characters may change). */
  String frameString() {
    return frame;
  }

  /** Where the scan is: the index in the frame of the next character to read. */
  int position() {
    return i;
  }

  /** Moves the scan to index {@code at} of the frame. */
  void moveTo(int at) {
    i = at;
  }

  /** The character at index {@code at} of the frame; NUL just past its end. */
  char at(int at) {
    return s[at];
  }

  /** Skips the string at the scan; false (nothing consumed) when this scanner does not take it. */
  boolean skipString() {
    int end = stringEnd();
    if (end < 0) return false;
    i = end + 1;
    return true;
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

  /** Takes {@code "word":}, the name of a part's field, if it is next. */
  boolean takeKey(char[] word) {
    int n = word.length;
    if (s[i] != '"' || !matches(i + 1, word) || s[i + 1 + n] != '"' || s[i + 2 + n] != ':') return false;
    i += n + 3;
    return true;
  }

  /** Whether {@code word} is at {@code at}; the NUL after the frame stops a comparison at its end. */
  boolean matches(int at, char[] word) {
    for (int k = 0, n = word.length; k < n; k++) {
      if (s[at + k] != word[k]) return false;
    }
    return true;
  }

  /** Skips one value of a field this SDK does not read; false when this reader does not take it. */
  boolean skipValue(int depth) {
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

  /**
   * Takes a string without escapes or control characters and returns the index of its closing quote (its
   * characters start at the scan's position before the call, plus one); -1, nothing consumed, otherwise.
   */
  int stringClose() {
    int end = stringEnd();
    if (end >= 0) i = end + 1;
    return end;
  }

  /** The frame's characters from {@code from} to {@code to} (exclusive), as a new String. */
  String between(int from, int to) {
    return frame != null ? frame.substring(from, to) : new String(s, from, to - from);
  }

  /** A string without escapes or control characters; null (nothing consumed past it) otherwise. */
  String string() {
    int end = stringEnd();
    if (end < 0) return null;
    int start = i + 1;
    i = end + 1;
    return frame != null ? frame.substring(start, end) : new String(s, start, end - start);
  }

  /**
   * Same as {@link #string}, as the cached instance when the same characters were read before. A string found in
   * the cache is not checked for escapes and controls: it has the characters of one that was (every cached string
   * was checked), so the check would pass.
   */
  String cachedString() {
    if (s[i] != '"') return null;
    int start = i + 1;
    int close = quoteAfter(start);
    if (close < 0) return null;
    int length = close - start;
    if (length > CACHE_MAX_LENGTH || length == 0) {
      if (!plain(start, close)) return null;
      i = close + 1;
      return new String(s, start, length);
    }
    // the slot pair by the length and four of the characters (the first, the middle one and the last two,
    // where ids of one kind differ): no pass over the whole string; the candidates are then compared whole
    int h = ((length << 16) | s[close - 1]) * 0x9E3779B9 ^ ((s[close - 2] << 16) | s[start]) * 0x7FEB352D
        ^ s[start + length / 2];
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    int slot = h & (CACHE_SLOTS - 2);
    if (cache == null) {
      cache = new String[CACHE_SLOTS];
      cacheChars = new char[CACHE_SLOTS][];
    }
    char[] first = cacheChars[slot];
    if (first != null && first.length == length && matches(start, first)) {
      i = close + 1;
      return cache[slot];
    }
    char[] second = cacheChars[slot + 1];
    if (second != null && second.length == length && matches(start, second)) {
      i = close + 1;
      // the one just read goes first: of two, the one read least lately is replaced
      String v = cache[slot + 1];
      cache[slot + 1] = cache[slot];
      cacheChars[slot + 1] = first;
      cache[slot] = v;
      cacheChars[slot] = second;
      return v;
    }
    if (!plain(start, close)) return null;
    i = close + 1;
    String v = frame != null ? frame.substring(start, close) : new String(s, start, length);
    cache[slot + 1] = cache[slot];
    cacheChars[slot + 1] = first;
    cache[slot] = v;
    cacheChars[slot] = v.toCharArray();
    return v;
  }

  /**
   * The index of the first quote at or after {@code j}, its characters before it unchecked (escapes and controls
   * included), or -1 when there is none before the frame's end. For a caller that checks every character itself.
   */
  private int quoteAfter(int j) {
    if (quoteSearch) return frame.indexOf('"', j);
    while (true) {
      char c = s[j];
      if (c == '"') return j;
      if (c == 0) return -1; // the NUL after the frame, or one in it: not a string this reader takes
      j++;
    }
  }

  /** Whether the characters from {@code from} to {@code to} (exclusive) hold no escape and no control. */
  private boolean plain(int from, int to) {
    if (quoteSearch) {
      // no backslash past the scan's start: controls alone
      for (int j = from; j < to; j++) {
        if (s[j] < 0x20) return false;
      }
      return true;
    }
    for (int j = from; j < to; j++) {
      char c = s[j];
      if (c == '\\' || c < 0x20) return false;
    }
    return true;
  }

  /** Where the string at {@link #i} ends (its closing quote), or -1 when this reader does not take it. */
  private int stringEnd() {
    if (s[i] != '"') return -1;
    int j = i + 1;
    if (quoteSearch) {
      int close = frame.indexOf('"', j);
      if (close < 0) return -1;
      for (; j < close; j++) {
        if (s[j] < 0x20) return -1;
      }
      return close;
    }
    while (true) {
      char c = s[j];
      if (c == '"') return j;
      if (c == '\\' || c < 0x20) return -1;
      j++;
    }
  }

  String nonEmpty() {
    String v = string();
    if (v == null || v.isEmpty()) throw new IllegalArgumentException("not a non-empty string");
    return v;
  }

  /** Same as {@link #nonEmpty}, but returns the index of the string's closing quote: no String is made. */
  int nonEmptyClose() {
    int open = i;
    int close = stringClose();
    if (close < 0 || close == open + 1) throw new IllegalArgumentException("not a non-empty string");
    return close;
  }

  String nonEmptyCached() {
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

  long atLeast(long min) {
    if (s[i] == '-') throw new IllegalArgumentException("negative");
    long v = integer();
    if (v < min) throw new IllegalArgumentException("below " + min);
    return v;
  }

  boolean takeNull() {
    return literal(NULL);
  }

  private boolean literal(char[] word) {
    if (!matches(i, word)) return false;
    char next = s[i + word.length];
    if (next != ',' && next != '}' && next != ']') return false;
    i += word.length;
    return true;
  }

  /**
   * A timestamp string, read in place (no String made of it). Its characters are not checked for escapes and
   * controls first: {@link IsoTimestamps#parse(char[], int, int)} takes nothing but digits and its separators.
   */
  long timestamp() {
    if (s[i] != '"') throw new IllegalArgumentException("not a string");
    int end = quoteAfter(i + 1);
    if (end < 0 || end == i + 1) throw new IllegalArgumentException("not a non-empty string");
    long v = IsoTimestamps.parse(s, i + 1, end);
    i = end + 1;
    return v;
  }

  boolean take(char c) {
    if (s[i] != c) return false;
    i++;
    return true;
  }
}
