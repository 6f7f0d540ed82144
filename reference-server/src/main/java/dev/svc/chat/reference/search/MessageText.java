package dev.svc.chat.reference.search;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.model.Message;
import java.util.ArrayList;
import java.util.List;

/** The searchable text of a message: the texts of its text parts, none for a deleted message. */
final class MessageText {

    /** The position gap between two parts, so that no phrase spans two parts. */
    static final int PART_GAP = 10;

    private MessageText() {
    }

    /** Returns the texts of the message's text parts in order; none when it is deleted. */
    static List<String> texts(Message message) {
        List<String> out = new ArrayList<>();
        if (message.deletedAt() != null) {
            return out;
        }
        for (JsonNode part : message.parts()) {
            JsonNode text = part.get("text");
            if ("text".equals(part.path("type").asText()) && text != null && text.isTextual()) {
                out.add(text.asText());
            }
        }
        return out;
    }

    /**
     * A word to index and its position: consecutive in a part, {@link #PART_GAP} apart across parts.
     *
     * @param word the folded word
     * @param position its position, from 0
     */
    record Positioned(String word, int position) {
    }

    /** Returns the words to index for the message, with their positions; empty for a deleted one. */
    static List<Positioned> words(Message message) {
        List<Positioned> out = new ArrayList<>();
        int position = 0;
        for (String text : texts(message)) {
            for (Words.Token token : Words.tokens(text)) {
                out.add(new Positioned(token.folded(), position++));
            }
            position += PART_GAP;
        }
        return out;
    }
}
