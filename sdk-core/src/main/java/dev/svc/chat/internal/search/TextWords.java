package dev.svc.chat.internal.search;

import java.util.ArrayList;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;

/**
 * The searchable words of a message as the service makes them (contract section 11): the texts of its text
 * parts in the current state (none for a deleted message), each cut into runs of word characters
 * ({@link SearchRules#isWordChar}) folded by {@link SearchRules#fold}; a run that folds to nothing is no word.
 */
public final class TextWords {
  private TextWords() {
  }

  /** One word of a text: its UTF-16 range {@code [start, end)} and its folded form. */
  public static final class Token {
    final int start;
    final int end;
    final String folded;

    Token(int start, int end, String folded) {
      this.start = start;
      this.end = end;
      this.folded = folded;
    }

    /** Returns the folded form. */
    public String folded() {
      return folded;
    }
  }

  /** Returns the texts of the message's text parts in order; none when it is deleted. */
  public static List<String> texts(Message message) {
    List<String> out = new ArrayList<>();
    if (message.isDeleted()) return out;
    for (MessagePart part : message.parts()) {
      String text = part.text();
      if (part.isText() && text != null) out.add(text);
    }
    return out;
  }

  /** Returns the words of {@code text} in order. */
  public static List<Token> tokens(String text) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int cp = text.codePointAt(i);
      if (!SearchRules.isWordChar(cp)) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      while (i < text.length() && SearchRules.isWordChar(cp = text.codePointAt(i))) i += Character.charCount(cp);
      String folded = SearchRules.fold(text.substring(start, i));
      if (!folded.isEmpty()) out.add(new Token(start, i, folded));
    }
    return out;
  }
}
