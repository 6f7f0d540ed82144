package dev.svc.chat.reference.search;

import java.util.ArrayList;
import java.util.List;

/**
 * The one parser of search queries (contract section 11) that every backend's index is queried with. A query
 * is words, {@code "quoted phrases"} and {@code prefix*} words; every other character separates words and
 * means nothing else: no engine's syntax ({@code title:x}, {@code a AND b}, {@code )}, {@code -x}) is ever
 * interpreted, {@code AND} is a word like any other.
 *
 * <ul>
 *   <li>A {@code "} opens a phrase that runs to the next {@code "} or to the end of the query; a phrase of one
 *       word is that word, a phrase without words is nothing. Inside a phrase {@code *} separates words.</li>
 *   <li>Outside phrases, a {@code *} right after a word makes that word a prefix; any other {@code *} is
 *       nothing.</li>
 * </ul>
 */
public final class QueryParser {

    /** The longest query, in code points. */
    public static final int MAX_QUERY = 200;

    private QueryParser() {
    }

    /** Why a query cannot be searched. */
    public static final class InvalidQuery extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidQuery(String message) {
            super(message);
        }
    }

    /**
     * Returns the terms of {@code q}; throws {@link InvalidQuery} when it is null, longer than
     * {@value #MAX_QUERY} code points, or has no word.
     */
    public static SearchTerms parse(String q) {
        if (q == null || q.isEmpty()) {
            throw new InvalidQuery("q is required");
        }
        if (q.codePointCount(0, q.length()) > MAX_QUERY) {
            throw new InvalidQuery("q must be at most " + MAX_QUERY + " code points");
        }
        List<SearchTerms.Term> terms = new ArrayList<>();
        List<String> phrase = null; // the words of the open phrase, null outside one
        int i = 0;
        while (i < q.length()) {
            int cp = q.codePointAt(i);
            if (cp == '"') {
                if (phrase != null) {
                    addPhrase(terms, phrase);
                    phrase = null;
                } else {
                    phrase = new ArrayList<>();
                }
                i++;
                continue;
            }
            if (!Words.isWordChar(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            while (i < q.length() && Words.isWordChar(cp = q.codePointAt(i))) {
                i += Character.charCount(cp);
            }
            String folded = Words.fold(q.substring(start, i));
            if (folded.isEmpty()) {
                continue;
            }
            if (phrase != null) {
                phrase.add(folded);
            } else {
                boolean prefix = i < q.length() && q.charAt(i) == '*';
                terms.add(new SearchTerms.Term(List.of(folded), prefix));
            }
        }
        if (phrase != null) {
            addPhrase(terms, phrase);
        }
        if (terms.isEmpty()) {
            throw new InvalidQuery("q has no word to search for");
        }
        return new SearchTerms(terms);
    }

    private static void addPhrase(List<SearchTerms.Term> terms, List<String> words) {
        if (!words.isEmpty()) {
            terms.add(new SearchTerms.Term(words, false));
        }
    }
}
