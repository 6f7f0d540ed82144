package dev.svc.chat.reference.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.model.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts a message keeps: written as sent, equal to the request's nodes, sharing nothing mutable, immutable. */
class MessagePartsTest {

    private final ObjectMapper mapper = Json.newMapper();

    @Test
    void storedPartsAreWrittenAsSentAndEqualTheRequest() throws Exception {
        String sent = "[{\"text\":\"hello\",\"type\":\"text\"},{\"type\":\"text\",\"text\":\"hi\"},"
                + "{\"type\":\"x-card\",\"title\":\"t\",\"fields\":{\"a\":[1,2.5,null,true]}}]";
        JsonNode request = StrictJson.parseText(mapper, sent);

        List<JsonNode> stored = MessageParts.validate(request);

        assertEquals(sent, mapper.writeValueAsString(stored));
        for (int i = 0; i < stored.size(); i++) {
            assertEquals(request.get(i), stored.get(i));
            assertEquals(stored.get(i), request.get(i));
            assertEquals(request.get(i).hashCode(), stored.get(i).hashCode());
        }
        assertEquals("hi", stored.get(1).get("text").textValue());
        assertNull(stored.get(1).get("missing"));
        assertEquals(List.of("type", "text"),
                stored.get(1).properties().stream().map(java.util.Map.Entry::getKey).toList());
        // Nested containers are copies: changing the request changes nothing stored.
        ((ObjectNode) request.get(2).get("fields")).put("a", 0);
        assertEquals("[1,2.5,null,true]", stored.get(2).get("fields").get("a").toString());
        // Parts of the usual shape share the immutable "type" node.
        assertSame(stored.get(0).get("type"), stored.get(1).get("type"));
    }

    @Test
    void aStoredPartCannotBeChangedButItsCopyCan() {
        JsonNode stored = MessageParts.validate(StrictJson.parseText(mapper,
                "[{\"type\":\"text\",\"text\":\"hello\"}]")).get(0);

        assertThrows(UnsupportedOperationException.class, () -> ((ObjectNode) stored).put("text", "changed"));
        assertThrows(UnsupportedOperationException.class, () -> ((ObjectNode) stored).remove("text"));
        ObjectNode copy = stored.deepCopy();
        assertNotSame(stored, copy);
        copy.put("text", "changed");
        assertEquals("hello", stored.get("text").textValue());
    }
}
