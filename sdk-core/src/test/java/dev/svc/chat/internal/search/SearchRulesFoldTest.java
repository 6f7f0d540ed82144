package dev.svc.chat.internal.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The fold of a word of ASCII letters and digits, which skips the normalizer, is the full fold's. */
class SearchRulesFoldTest {
  private static final String ASCII = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  @Test
  void asciiWordsFoldAsTheFullRulesDo() {
    Random random = new Random(3);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder word = new StringBuilder();
      int length = i % 10 == 0 ? 60 + random.nextInt(20) : 1 + random.nextInt(12);
      for (int k = 0; k < length; k++) word.append(ASCII.charAt(random.nextInt(ASCII.length())));
      assertEquals(fullFold(word.toString()), SearchRules.fold(word.toString()), word.toString());
    }
    assertEquals("istanbul", SearchRules.fold("ISTANBUL"));
    assertEquals("", SearchRules.fold(""));
  }

  @Test
  void wordsWithOtherCharactersTakeTheFullRules() {
    for (String word : new String[] {"Café", "İstanbul", "Straße", "ﬃ", "x\u0301", "ΣΊΣΥΦΟΣ", "x1½"}) {
      assertEquals(fullFold(word), SearchRules.fold(word), word);
    }
  }

  /** The rules of {@link SearchRules#fold} as written, with no shortcut. */
  private static String fullFold(String word) {
    String folded = word;
    for (int round = 0; round < 4; round++) {
      String cased = folded.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
      String decomposed = Normalizer.normalize(cased, Normalizer.Form.NFKD);
      StringBuilder kept = new StringBuilder();
      for (int i = 0; i < decomposed.length(); ) {
        int cp = decomposed.codePointAt(i);
        i += Character.charCount(cp);
        int type = Character.getType(cp);
        if (type != Character.NON_SPACING_MARK && type != Character.ENCLOSING_MARK && SearchRules.isWordChar(cp)) {
          kept.appendCodePoint(cp);
        }
      }
      if (kept.toString().equals(folded)) break;
      folded = kept.toString();
    }
    if (folded.codePointCount(0, folded.length()) > SearchRules.MAX_WORD) {
      folded = folded.substring(0, folded.offsetByCodePoints(0, SearchRules.MAX_WORD));
    }
    return folded;
  }
}
