package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the search query parser: any text parses to terms or is refused as an
 * {@link QueryParser.InvalidQuery}, never another exception; terms are non-empty folded words, folding is
 * idempotent, and a query's canonical text parses to the same terms (what the cursor binds to is stable), and
 * both query forms in the PostgreSQL backend are made of quoted lexemes only.
 */
class QueryParserFuzzTest {

    @FuzzTest
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void parse(byte[] bytes) {
        String q = new String(bytes, StandardCharsets.UTF_8);
        SearchTerms terms;
        try {
            terms = QueryParser.parse(q);
        } catch (QueryParser.InvalidQuery e) {
            return;
        }
        assertTrue(q.codePointCount(0, q.length()) <= QueryParser.MAX_QUERY, q);
        assertFalse(terms.terms().isEmpty(), q);
        for (SearchTerms.Term term : terms.terms()) {
            for (String word : term.words()) {
                assertFalse(word.isEmpty(), q);
                assertEquals(word, Words.fold(word), "folding is idempotent: " + q);
                assertTrue(word.codePoints().allMatch(Words::isWordChar), "a word of word characters: " + q);
            }
        }
        String canonical = terms.canonical();
        if (canonical.codePointCount(0, canonical.length()) <= QueryParser.MAX_QUERY) {
            assertEquals(terms, QueryParser.parse(canonical), q);
        }
        String tsquery = PgSearchIndex.tsquery(terms);
        assertFalse(tsquery.isEmpty(), q);
    }
}
