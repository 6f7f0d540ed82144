package dev.svc.chat.internal.search;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.svc.chat.Message;

/**
 * The text an SQLite full-text table (FTS5 or FTS4) indexes for a message, and the MATCH expression of a query
 * over it. Each folded word ({@link TextWords}) is written as the lowercase hex of its UTF-8 bytes, so that:
 *
 * <ul>
 *   <li>every tokenizer (FTS5's unicode61, FTS4's simple) reads the same tokens, whatever its Unicode tables:
 *       the folding is the service's, done in Java, never the engine's;
 *   <li>a MATCH expression holds only hex tokens, spaces, {@code "} and {@code *}: nothing of the user's text
 *       can be read as FTS syntax ({@code AND}, {@code NEAR(}, {@code col:}, parentheses);
 *   <li>a prefix of a word, in whole code points, is a prefix of its hex: {@code x*} matches as the service's
 *       prefix does.
 * </ul>
 *
 * Text parts are separated by the token {@value #PART_GAP}, which is no hex, so that no phrase spans two parts.
 */
public final class FtsText {
  /** The token between two text parts. */
  static final String PART_GAP = "x";
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private FtsText() {
  }

  /** Returns the indexed text of the message, or null when it has no word (deleted, or no text). */
  public static String document(Message message) {
    StringBuilder out = new StringBuilder();
    boolean any = false;
    for (String text : TextWords.texts(message)) {
      if (out.length() > 0) out.append(' ').append(PART_GAP);
      for (TextWords.Token token : TextWords.tokens(text)) {
        if (out.length() > 0) out.append(' ');
        hex(token.folded, out);
        any = true;
      }
    }
    return any ? out.toString() : null;
  }

  /** Returns the MATCH expression of the terms: each must match (FTS's implicit AND). */
  public static String match(List<SearchRules.Term> terms) {
    StringBuilder out = new StringBuilder();
    for (SearchRules.Term term : terms) {
      if (out.length() > 0) out.append(' ');
      if (term.words().size() > 1) {
        out.append('"');
        for (int i = 0; i < term.words().size(); i++) {
          if (i > 0) out.append(' ');
          hex(term.words().get(i), out);
        }
        out.append('"');
      } else {
        hex(term.words().get(0), out);
        if (term.prefix()) out.append('*');
      }
    }
    return out.toString();
  }

  private static void hex(String word, StringBuilder out) {
    for (byte b : word.getBytes(StandardCharsets.UTF_8)) {
      out.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
    }
  }
}
