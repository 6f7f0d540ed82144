package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.svc.chat.internal.search.SearchRules;
import dev.svc.chat.reference.search.QueryParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The SDK's twin of the search query rules ({@link SearchRules}, Java 8) and the reference server's
 * {@link QueryParser} agree on a corpus of queries: the same terms, or both refuse.
 */
class SearchRulesTwinTest {

  /** Pieces queries are made of: words of many scripts, marks, operators, engine syntax, emoji. */
  private static final String[] PIECES = {
      "hello", "Café", "CAFE", "naïve", "Straße", "ﬃ", "ǰ", "İstanbul", "ΣΊΣΥΦΟΣ", "ς", "שלום", "مَرْحَبًا",
      "कि", "東京都", "한국어", "x1", "42", "\u0301", "\u20DD", "ͺ", "ŉ", "ℌ", "½", "🙂", "👍🏽", "\u200F",
      "\"", "*", "-", ":", "(", ")", "AND", "OR", "NOT", "title:x", "'; DROP TABLE m; --", "<->", "&", "|", "!",
      " ", "  ", "\t", "\n", "a*", "*b", "\"a b\"", "\"a* b", "x".repeat(70),
  };

  private static String server(String q) {
    try {
      return QueryParser.parse(q).canonical();
    } catch (QueryParser.InvalidQuery e) {
      return "<refused>";
    }
  }

  private static String sdk(String q) {
    List<SearchRules.Term> terms = SearchRules.parse(q);
    return terms == null ? "<refused>" : SearchRules.canonical(terms);
  }

  @Test
  void bothParsersAgreeOnTheCorpus() {
    List<String> corpus = new ArrayList<>(List.of("", " ", "\"", "*", "-", "a".repeat(200), "a".repeat(201),
        "😀".repeat(200), "😀".repeat(201), "\"quick brown\" fox*", "title:x AND (b) -c"));
    for (String piece : PIECES) {
      corpus.add(piece);
    }
    Random random = new Random(20261129);
    for (int n = 0; n < 20_000; n++) {
      StringBuilder q = new StringBuilder();
      int pieces = 1 + random.nextInt(8);
      for (int i = 0; i < pieces; i++) {
        if (random.nextInt(5) == 0) {
          q.appendCodePoint(random.nextInt(0x3000)); // anything of the first planes' common scripts
        } else {
          q.append(PIECES[random.nextInt(PIECES.length)]);
        }
        if (random.nextBoolean()) q.append(' ');
      }
      corpus.add(q.toString());
    }
    for (String q : corpus) {
      assertEquals(server(q), sdk(q), "«" + q + "»");
    }
  }
}
