package dev.svc.chat.internal.search;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The service's search query rules (contract section 11, {@code docs/search.md}) on the SDK's side, for
 * searching stored messages with the answers the service would give: the same words, folding, phrases and
 * prefixes as the reference server's parser, written again for Java 8 and Android. The integration tests run
 * both on a corpus of queries and compare their {@link #canonical} forms.
 */
public final class SearchRules {
  /** The most code points of a query. */
  public static final int MAX_QUERY = 200;
  /** The code points of a folded word that count. */
  public static final int MAX_WORD = 64;

  private SearchRules() {
  }

  /** One term: a word, a prefix (one word) or a phrase (several words), folded. */
  public static final class Term {
    private final List<String> words;
    private final boolean prefix;

    Term(List<String> words, boolean prefix) {
      this.words = Collections.unmodifiableList(new ArrayList<>(words));
      this.prefix = prefix;
    }

    /** Returns the folded words, at least one. */
    public List<String> words() {
      return words;
    }

    /** Returns whether the single word matches as a prefix. */
    public boolean prefix() {
      return prefix;
    }
  }

  /** Returns whether the code point is part of a word: a letter, a digit or a combining mark. */
  public static boolean isWordChar(int cp) {
    if (Character.isLetterOrDigit(cp)) return true;
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  /**
   * Returns the terms of {@code q}, or null when it has none or is over {@value #MAX_QUERY} code points (the
   * service answers those with {@code bad_request}).
   */
  public static List<Term> parse(String q) {
    if (q == null || q.isEmpty() || q.codePointCount(0, q.length()) > MAX_QUERY) return null;
    List<Term> terms = new ArrayList<>();
    List<String> phrase = null;
    int i = 0;
    while (i < q.length()) {
      int cp = q.codePointAt(i);
      if (cp == '"') {
        if (phrase != null) {
          if (!phrase.isEmpty()) terms.add(new Term(phrase, false));
          phrase = null;
        } else {
          phrase = new ArrayList<>();
        }
        i++;
        continue;
      }
      if (!isWordChar(cp)) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      while (i < q.length() && isWordChar(cp = q.codePointAt(i))) i += Character.charCount(cp);
      String folded = fold(q.substring(start, i));
      if (folded.isEmpty()) continue;
      if (phrase != null) {
        phrase.add(folded);
      } else {
        terms.add(new Term(Collections.singletonList(folded), i < q.length() && q.charAt(i) == '*'));
      }
    }
    if (phrase != null && !phrase.isEmpty()) terms.add(new Term(phrase, false));
    return terms.isEmpty() ? null : terms;
  }

  /**
   * Returns the folded form of a word: case-folded (upper then lower case), compatibility-decomposed,
   * without non-spacing and enclosing marks nor what is no word character, repeated until nothing changes,
   * cut to {@value #MAX_WORD} code points.
   */
  public static String fold(String word) {
    String ascii = foldAscii(word);
    if (ascii != null) return ascii;
    String folded = word;
    for (int round = 0; round < 4; round++) {
      String next = foldOnce(folded);
      if (next.equals(folded)) break;
      folded = next;
    }
    if (folded.codePointCount(0, folded.length()) > MAX_WORD) {
      folded = folded.substring(0, folded.offsetByCodePoints(0, MAX_WORD));
    }
    return folded;
  }

  /**
   * Returns the fold of a word of ASCII letters and digits only, or null for any other word: its lower case, cut
   * to {@value #MAX_WORD} characters. Case mapping in the root locale, NFKD and the marks leave such a word as
   * lower case does, so this is {@link #fold}'s answer without its normalizer, for the common word.
   */
  private static String foldAscii(String word) {
    char[] lower = null;
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        if (lower == null) lower = word.toCharArray();
        lower[i] = (char) (c + ('a' - 'A'));
      } else if ((c < 'a' || c > 'z') && (c < '0' || c > '9')) {
        return null;
      }
    }
    String folded = lower == null ? word : new String(lower);
    return folded.length() > MAX_WORD ? folded.substring(0, MAX_WORD) : folded;
  }

  private static String foldOnce(String word) {
    String cased = word.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
    String decomposed = Normalizer.normalize(cased, Normalizer.Form.NFKD);
    StringBuilder kept = new StringBuilder(decomposed.length());
    for (int i = 0; i < decomposed.length(); ) {
      int cp = decomposed.codePointAt(i);
      i += Character.charCount(cp);
      int type = Character.getType(cp);
      if (type != Character.NON_SPACING_MARK && type != Character.ENCLOSING_MARK && isWordChar(cp)) {
        kept.appendCodePoint(cp);
      }
    }
    return kept.toString();
  }

  /** Returns the terms as text: phrases quoted, prefixes starred, separated by spaces. */
  public static String canonical(List<Term> terms) {
    StringBuilder out = new StringBuilder();
    for (Term term : terms) {
      if (out.length() > 0) out.append(' ');
      StringBuilder words = new StringBuilder();
      for (String w : term.words()) {
        if (words.length() > 0) words.append(' ');
        words.append(w);
      }
      if (term.words().size() > 1) {
        out.append('"').append(words).append('"');
      } else {
        out.append(words).append(term.prefix() ? "*" : "");
      }
    }
    return out.toString();
  }
}
