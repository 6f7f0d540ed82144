package dev.svc.chat.internal.search;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.svc.chat.Message;

/**
 * The text an SQLite full-text table (FTS5 or FTS4) indexes for a message, and the MATCH expression of a query
 * over it. Each folded word ({@link TextWords}) is written as it is, for a tokenizer that cuts at ASCII
 * characters other than letters and digits only, folds ASCII case only, and takes every other character as part
 * of a token (FTS5's {@code ascii}, FTS4's {@code simple}). A folded word holds ASCII lowercase letters and digits
 * and non-ASCII letters, digits and marks, so that:
 *
 * <ul>
 *   <li>each word is exactly one token, unchanged: the folding is the service's, done in Java, never the
 *       engine's, whatever its Unicode tables;
 *   <li>a MATCH expression holds only such words, spaces, {@code "} and {@code *}: nothing of the user's text
 *       can be read as FTS syntax (the operators {@code AND}, {@code OR}, {@code NOT}, {@code NEAR} are upper
 *       case; no {@code (}, {@code :}, {@code -} or {@code ^} survives folding);
 *   <li>a prefix of a word, in whole code points, is a prefix of its UTF-8 bytes: {@code x*} matches as the
 *       service's prefix does.
 * </ul>
 *
 * Text parts are separated by the token {@value #PART_GAP}, which is no word (no letter, digit or mark), so that
 * no phrase spans two parts. The text begins with a token of the message's room, {@value #ROOM} and the hex of
 * the room id's UTF-8 bytes (no word either), so that a search narrowed to a room is a MATCH of one more token:
 * the index meets the word's matches with the room's instead of the store reading every match's row.
 */
public final class FtsText {
  /** The token between two text parts: the section sign, a non-ASCII punctuation, so one token and no word. */
  static final String PART_GAP = "\u00a7";
  /** The start of a room's token: the currency sign, a non-ASCII symbol, so one token with the hex and no word. */
  static final String ROOM = "\u00a4";
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private FtsText() {
  }

  /** Returns the indexed text of the message, or null when it has no word (deleted, or no text). */
  public static String document(Message message) {
    StringBuilder out = room(message.roomId(), new StringBuilder());
    int start = out.length();
    boolean any = false;
    for (String text : TextWords.texts(message)) {
      if (out.length() > start) out.append(' ').append(PART_GAP);
      for (TextWords.Token token : TextWords.tokens(text)) {
        out.append(' ');
        out.append(token.folded);
        any = true;
      }
    }
    return any ? out.toString() : null;
  }

  /**
   * Returns the MATCH expression of the terms, each of which must match (FTS's implicit AND), and of the room
   * when {@code roomId} is not null.
   */
  public static String match(List<SearchRules.Term> terms, String roomId) {
    StringBuilder out = new StringBuilder();
    for (SearchRules.Term term : terms) {
      if (out.length() > 0) out.append(' ');
      if (term.words().size() > 1) {
        out.append('"');
        for (int i = 0; i < term.words().size(); i++) {
          if (i > 0) out.append(' ');
          out.append(term.words().get(i));
        }
        out.append('"');
      } else {
        out.append(term.words().get(0));
        if (term.prefix()) out.append('*');
      }
    }
    if (roomId != null) room(roomId, out.append(' '));
    return out.toString();
  }

  private static StringBuilder room(String roomId, StringBuilder out) {
    out.append(ROOM);
    for (byte b : roomId.getBytes(StandardCharsets.UTF_8)) out.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
    return out;
  }
}
