package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Snippets: the matching part, at most 200 code points besides the marks, every matched word marked. */
class SnippetsTest {

    private static Message message(String... texts) {
        List<JsonNode> parts = new ArrayList<>();
        for (String text : texts) {
            parts.add(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
        }
        return new Message("m", "r", 1, 1, "alice", parts, "c", Instant.EPOCH, null, null, Map.of());
    }

    private static String snippet(String q, String... texts) {
        return Snippets.of(message(texts), QueryParser.parse(q));
    }

    @Test
    void aShortTextIsWholeWithEveryMatchMarked() {
        assertEquals("The \u0001Café\u0002 and the \u0001cafe\u0002, \u0001deployed\u0002 by \u0001Deployer\u0002",
                snippet("cafe deploy*", "The Café and the cafe, deployed by Deployer"));
    }

    @Test
    void theFirstPartWithAMatchIsShown() {
        assertEquals("second \u0001part\u0002", snippet("part", "nothing here", "second part"));
    }

    @Test
    void aLongTextIsCutAroundItsFirstMatch() {
        String text = "lorem ".repeat(100) + "needle" + " ipsum".repeat(100);
        String snippet = snippet("needle", text);
        String plain = snippet.replace("\u0001", "").replace("\u0002", "");
        assertEquals(200, plain.codePointCount(0, plain.length()));
        assertTrue(snippet.contains("\u0001needle\u0002"), snippet);
        assertTrue(text.contains(plain));
    }

    @Test
    void codePointsNotUnitsAreCounted() {
        String text = "😀".repeat(150) + " hit " + "😀".repeat(150);
        String plain = snippet("hit", text).replace("\u0001", "").replace("\u0002", "");
        assertEquals(200, plain.codePointCount(0, plain.length()));
        assertTrue(Character.isSurrogatePair(plain.charAt(0), plain.charAt(1)), "never cut inside a code point");
    }

    @Test
    void aWordCutByTheEdgeIsNotMarked() {
        String text = "x".repeat(300) + " x";
        String snippet = snippet("xx*", text);
        assertEquals(-1, snippet.indexOf('\u0001'), "the long word does not fit whole");
    }
}
