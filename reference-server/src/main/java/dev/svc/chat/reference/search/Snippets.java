package dev.svc.chat.reference.search;

import dev.svc.chat.reference.model.Message;
import java.util.List;

/**
 * A result's snippet: up to {@value #MAX} code points (marks not counted) of the first text part with a
 * matched word, every matched word in it wrapped in {@value #OPEN_NAME} and {@value #CLOSE_NAME}; a part that
 * fits is given whole, a longer one from a little before its first matched word. A word cut by the window's
 * edge is not marked.
 */
final class Snippets {

    static final int MAX = 200;
    static final char OPEN = '\u0001';
    static final char CLOSE = '\u0002';
    static final String OPEN_NAME = "U+0001";
    static final String CLOSE_NAME = "U+0002";
    /** The code points shown before the first matched word when the part is cut. */
    private static final int LEAD = 30;

    private Snippets() {
    }

    /** Returns the snippet of the message for the terms (empty when it has no text). */
    static String of(Message message, SearchTerms terms) {
        List<String> texts = MessageText.texts(message);
        if (texts.isEmpty()) {
            return "";
        }
        for (String text : texts) {
            List<Words.Token> tokens = Words.tokens(text);
            for (Words.Token token : tokens) {
                if (terms.matches(token.folded())) {
                    return window(text, tokens, token.start(), terms);
                }
            }
        }
        String first = texts.get(0);
        return window(first, Words.tokens(first), 0, terms);
    }

    private static String window(String text, List<Words.Token> tokens, int firstMatch, SearchTerms terms) {
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
        for (Words.Token token : tokens) {
            if (token.start() < start || token.end() > end || !terms.matches(token.folded())) {
                continue;
            }
            out.append(text, at, token.start()).append(OPEN).append(text, token.start(), token.end()).append(CLOSE);
            at = token.end();
        }
        return out.append(text, at, end).toString();
    }
}
