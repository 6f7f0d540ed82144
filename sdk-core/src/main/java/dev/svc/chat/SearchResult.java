package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One message found by {@link ChatClient#searchMessages(SearchQuery)}: the message in its current state and a
 * snippet of its matching text, in which the service wrapped every matched word in {@link #MARK_START} and
 * {@link #MARK_END}. {@link #plainSnippet()} and {@link #highlights()} give the same without the marks, for
 * showing it.
 */
public final class SearchResult {
  /** The character before a matched word in {@link #snippet()}. */
  public static final char MARK_START = '\u0001';
  /** The character after a matched word in {@link #snippet()}. */
  public static final char MARK_END = '\u0002';

  private final Message message;
  private final String snippet;

  /**
   * Creates a result.
   *
   * @param message the message found
   * @param snippet its snippet with the service's marks
   */
  public SearchResult(Message message, String snippet) {
    if (message == null) throw new NullPointerException("message == null");
    if (snippet == null) throw new NullPointerException("snippet == null");
    this.message = message;
    this.snippet = snippet;
  }

  /**
   * Returns the message found, in its state when the service answered.
   *
   * @return the message
   */
  public Message message() {
    return message;
  }

  /**
   * Returns the snippet as the service gave it: up to 200 code points of the matching text, every matched word
   * between {@link #MARK_START} and {@link #MARK_END}.
   *
   * @return the snippet with its marks
   */
  public String snippet() {
    return snippet;
  }

  /**
   * Returns the snippet without its marks.
   *
   * @return the plain snippet
   */
  public String plainSnippet() {
    StringBuilder out = new StringBuilder(snippet.length());
    for (int i = 0; i < snippet.length(); i++) {
      char c = snippet.charAt(i);
      if (c != MARK_START && c != MARK_END) out.append(c);
    }
    return out.toString();
  }

  /**
   * Returns where the matched words are in {@link #plainSnippet()}: pairs of a start index (inclusive) and an
   * end index (exclusive) in UTF-16 units, in order, not overlapping. A mark without its pair is ignored.
   *
   * @return an unmodifiable list of two-element arrays {@code {start, end}}
   */
  public List<int[]> highlights() {
    List<int[]> out = new ArrayList<>();
    int plain = 0;
    int start = -1;
    for (int i = 0; i < snippet.length(); i++) {
      char c = snippet.charAt(i);
      if (c == MARK_START) {
        start = plain;
      } else if (c == MARK_END) {
        if (start >= 0) out.add(new int[] {start, plain});
        start = -1;
      } else {
        plain++;
      }
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof SearchResult)) return false;
    SearchResult r = (SearchResult) o;
    return message.equals(r.message) && snippet.equals(r.snippet);
  }

  @Override
  public int hashCode() {
    return 31 * message.hashCode() + snippet.hashCode();
  }

  @Override
  public String toString() {
    return "SearchResult{message=" + message.id() + ", snippet=" + plainSnippet() + "}";
  }
}
