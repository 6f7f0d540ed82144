package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The query rules of contract section 11, as {@link QueryParser} and {@link Words} apply them. */
class QueryParserTest {

    private static String canonical(String q) {
        return QueryParser.parse(q).canonical();
    }

    @Test
    void wordsPhrasesAndPrefixes() {
        assertEquals("hello world", canonical("Hello,  WORLD!"));
        assertEquals("\"quick brown\" fox", canonical("\"Quick Brown\" fox"));
        assertEquals("deploy* prod", canonical("deploy* prod"));
        assertEquals("\"to be\"", canonical("\"to be")); // an unterminated phrase runs to the end
        assertEquals("solo", canonical("\"solo\"")); // a phrase of one word is the word
        assertEquals("foo* bar", canonical("foo*bar"));
        assertEquals("foo", canonical("*foo")); // a star before a word is nothing
        assertEquals("\"a b\"", canonical("\"a* b\"")); // inside a phrase a star separates words
    }

    @Test
    void caseAndAccentsFold() {
        assertEquals("cafe resume", canonical("CAFÉ Résumé"));
        assertEquals("strasse", canonical("Straße"));
        assertEquals("ffi", canonical("ﬃ")); // compatibility forms fold too
        assertEquals(Words.fold("naïve"), Words.fold("NAIVE"));
    }

    @Test
    void engineSyntaxIsPlainText() {
        assertEquals("title x", canonical("title:x"));
        assertEquals("a and b", canonical("a AND b"));
        assertEquals("a or not b", canonical("a OR NOT b"));
        assertEquals("x", canonical(")x("));
        assertEquals("foo 2", canonical("foo~2 -"));
        assertEquals("drop table messages", canonical("'; DROP TABLE messages; --"));
        assertEquals("a b", canonical("a & !b | <->"));
    }

    @Test
    void emojiAndRightToLeftText() {
        assertEquals("שלום", canonical("שלום 🙂"));
        assertEquals("مرحبا", canonical("\u200Fمرحبا\u200E"));
        assertThrows(QueryParser.InvalidQuery.class, () -> QueryParser.parse("🙂🎉"));
        // Arabic with its vowel marks folds to the bare letters.
        assertEquals("كتب", canonical("كَتَبَ"));
    }

    @Test
    void emptyAfterParsingIsRefused() {
        for (String q : List.of("", " ", "\t\n ", "\"", "*", "-", "\"\"", "* - \" *", "***", "\u0301")) {
            assertThrows(QueryParser.InvalidQuery.class, () -> QueryParser.parse(q), "«" + q + "»");
        }
        assertThrows(QueryParser.InvalidQuery.class, () -> QueryParser.parse(null));
    }

    @Test
    void atMostTwoHundredCodePoints() {
        assertEquals(1, QueryParser.parse("a".repeat(200)).terms().size());
        assertThrows(QueryParser.InvalidQuery.class, () -> QueryParser.parse("a".repeat(201)));
        // 200 code points outside the BMP are 400 UTF-16 units and allowed.
        assertEquals("x", canonical("😀".repeat(199) + "x"));
        assertThrows(QueryParser.InvalidQuery.class, () -> QueryParser.parse("😀".repeat(200) + "x"));
    }

    @Test
    void longWordsCountByTheirFirstCodePoints() {
        String folded = Words.fold("a".repeat(100));
        assertEquals(Words.MAX_WORD, folded.length());
        assertEquals(Words.fold("a".repeat(80)), folded);
    }

    @Test
    void matchesWordsAndPrefixes() {
        SearchTerms terms = QueryParser.parse("deploy* \"green light\"");
        assertTrue(terms.matches("deployment"));
        assertTrue(terms.matches("green"));
        assertFalse(terms.matches("redeploy"));
        assertFalse(terms.matches("lights"));
    }

    @Test
    void tokensKeepTheirPlaceInTheText() {
        List<Words.Token> tokens = Words.tokens("Ça va? Très-bien 🙂 x1");
        assertEquals(List.of("ca", "va", "tres", "bien", "x1"), tokens.stream().map(Words.Token::folded).toList());
        assertEquals("Très", "Ça va? Très-bien 🙂 x1".substring(tokens.get(2).start(), tokens.get(2).end()));
    }
}
