package dev.svc.chat.transport.jdk;

/** The UTF-8 size of text, as the send queue counts it. */
final class Utf8 {
  private Utf8() {
  }

  /** Returns the size of {@code s} in UTF-8. */
  static long size(String s) {
    long size = 0;
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        size++;
      } else if (c < 0x800) {
        size += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        size += 4;
        i++;
      } else {
        size += 3;
      }
    }
    return size;
  }
}
