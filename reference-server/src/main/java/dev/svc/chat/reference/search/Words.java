package dev.svc.chat.reference.search;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The search's words (contract section 11): a word is a run of letters, digits and combining marks, matched by
 * its folded form (decomposed, without non-spacing and enclosing marks, case-folded), of which only the first
 * {@value #MAX_WORD} code points count. Every backend indexes the words of this class and no engine's own, so
 * that memory, SQLite and PostgreSQL find the same messages.
 */
public final class Words {

    /** The code points of a folded word that count; longer words are matched by this prefix. */
    public static final int MAX_WORD = 64;

    private Words() {
    }

    /**
     * A word of a text: its UTF-16 range {@code [start, end)} and its folded form.
     *
     * @param start the index of its first char
     * @param end the index after its last char
     * @param folded its folded form
     */
    public record Token(int start, int end, String folded) {
    }

    /** Returns whether the code point is part of a word. */
    public static boolean isWordChar(int cp) {
        if (Character.isLetterOrDigit(cp)) {
            return true;
        }
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }

    /** Returns the words of {@code text} in order. */
    public static List<Token> tokens(String text) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (!isWordChar(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            while (i < text.length() && isWordChar(cp = text.codePointAt(i))) {
                i += Character.charCount(cp);
            }
            String folded = fold(text.substring(start, i));
            if (!folded.isEmpty()) {
                out.add(new Token(start, i, folded));
            }
        }
        return out;
    }

    /**
     * Returns the folded form of a word: case-folded (upper then lower case, so that {@code ß} is {@code ss}),
     * compatibility-decomposed, without non-spacing and enclosing marks (accents) nor what is no word
     * character, repeated until nothing changes (a case mapping can add a mark, a decomposition a capital),
     * then cut to {@value #MAX_WORD} code points. A word of marks alone folds to the empty string and is no word.
     */
    public static String fold(String word) {
        String folded = word;
        for (int round = 0; round < 4; round++) {
            String next = foldOnce(folded);
            if (next.equals(folded)) {
                break;
            }
            folded = next;
        }
        if (folded.codePointCount(0, folded.length()) > MAX_WORD) {
            folded = folded.substring(0, folded.offsetByCodePoints(0, MAX_WORD));
        }
        return folded;
    }

    private static String foldOnce(String word) {
        String cased = word.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        String decomposed = Normalizer.normalize(cased, Normalizer.Form.NFKD);
        StringBuilder kept = new StringBuilder(decomposed.length());
        decomposed.codePoints().filter(cp -> {
            int type = Character.getType(cp);
            return type != Character.NON_SPACING_MARK && type != Character.ENCLOSING_MARK && isWordChar(cp);
        }).forEach(kept::appendCodePoint);
        return kept.toString();
    }
}
