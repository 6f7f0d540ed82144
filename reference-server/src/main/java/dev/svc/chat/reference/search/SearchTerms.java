package dev.svc.chat.reference.search;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed search query: terms that must all match. Made only by {@link QueryParser}; never empty.
 *
 * @param terms the terms, in the query's order
 */
public record SearchTerms(List<Term> terms) {

    /** Copies the list. */
    public SearchTerms {
        terms = List.copyOf(terms);
    }

    /**
     * One term: a word (one element), a word matched as a prefix, or a phrase (its words consecutively and in
     * order). Words are folded ({@link Words#fold}).
     *
     * @param words the folded words, at least one
     * @param prefix whether the (single) word matches as a prefix
     */
    public record Term(List<String> words, boolean prefix) {

        /** Copies the list; a prefix term has one word. */
        public Term {
            words = List.copyOf(words);
            if (words.isEmpty() || prefix && words.size() != 1) {
                throw new IllegalArgumentException("a term has words, a prefix term one: " + words);
            }
        }

        /** Returns whether this term is a phrase of several words. */
        public boolean isPhrase() {
            return words.size() > 1;
        }
    }

    /** Returns whether a folded word of a text is one the query matches (as a word or by a prefix). */
    public boolean matches(String folded) {
        for (Term term : terms) {
            if (term.prefix() ? folded.startsWith(term.words().get(0)) : term.words().contains(folded)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns a canonical text of the terms, the same for every query that parses to them (the cursor binds
     * to it): phrases quoted, prefixes starred.
     */
    public String canonical() {
        List<String> out = new ArrayList<>();
        for (Term term : terms) {
            String words = String.join(" ", term.words());
            out.add(term.isPhrase() ? "\"" + words + "\"" : term.prefix() ? words + "*" : words);
        }
        return String.join(" ", out);
    }
}
