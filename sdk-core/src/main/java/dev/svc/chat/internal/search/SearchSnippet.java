package dev.svc.chat.internal.search;

import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.SearchResult;

/**
 * A result's snippet as the service makes it: up to {@value #MAX} code points (marks not counted) of the first
 * text part with a matched word, every matched word wrapped in {@link SearchResult#MARK_START} and
 * {@link SearchResult#MARK_END}; a part that fits is given whole, a longer one from {@value #LEAD} code points
 * before its first matched word. A word cut by the window's edge is not marked.
 */
public final class SearchSnippet {
  /** The most code points of a snippet, marks not counted. */
  static final int MAX = 200;
  /** The code points shown before the first matched word when the part is cut. */
  private static final int LEAD = 30;

  private SearchSnippet() {
  }

  /** Returns whether a folded word of a text is one the terms match (as a word, in a phrase, or by a prefix). */
  public static boolean matches(List<SearchRules.Term> terms, String folded) {
    for (SearchRules.Term term : terms) {
      if (term.prefix() ? folded.startsWith(term.words().get(0)) : term.words().contains(folded)) return true;
    }
    return false;
  }

  /** Returns the snippet of the message for the terms (empty when it has no text). */
  public static String of(Message message, List<SearchRules.Term> terms) {
    List<String> texts = TextWords.texts(message);
    if (texts.isEmpty()) return "";
    for (String text : texts) {
      List<TextWords.Token> tokens = TextWords.tokens(text);
      for (TextWords.Token token : tokens) {
        if (matches(terms, token.folded)) return window(text, tokens, token.start, terms);
      }
    }
    String first = texts.get(0);
    return window(first, TextWords.tokens(first), 0, terms);
  }

  private static String window(String text, List<TextWords.Token> tokens, int firstMatch,
      List<SearchRules.Term> terms) {
    int length = text.codePointCount(0, text.length());
    int start = 0;
    int end = text.length();
    if (length > MAX) {
      int matchCp = text.codePointCount(0, firstMatch);
      int startCp = Math.max(0, Math.min(matchCp - LEAD, length - MAX));
      start = text.offsetByCodePoints(0, startCp);
      end = text.offsetByCodePoints(start, MAX);
    }
    StringBuilder out = new StringBuilder();
    int at = start;
    for (TextWords.Token token : tokens) {
      if (token.start < start || token.end > end || !matches(terms, token.folded)) continue;
      out.append(text, at, token.start).append(SearchResult.MARK_START).append(text, token.start, token.end)
          .append(SearchResult.MARK_END);
      at = token.end;
    }
    return out.append(text, at, end).toString();
  }
}
