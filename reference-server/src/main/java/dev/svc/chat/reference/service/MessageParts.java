package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Validates message parts: 1 to 10 objects, each with a string {@code type}; a {@code text} part needs a
 * {@code text} string of 1 to 4,000 code points. Other part types are kept as given (opaque objects), so
 * newer clients can send kinds this server does not know.
 */
public final class MessageParts {

    // Immutable, so every stored text part can share it.
    private static final TextNode TEXT_TYPE = TextNode.valueOf("text");

    private MessageParts() {
    }

    /** Returns deep copies of valid parts, else throws 400. */
    public static List<JsonNode> validate(JsonNode parts) {
        if (parts == null || !parts.isArray()) {
            throw ApiException.badRequest("parts is required and must be an array");
        }
        if (parts.size() < 1 || parts.size() > Inputs.MAX_PARTS) {
            throw ApiException.badRequest("parts must hold 1 to " + Inputs.MAX_PARTS + " parts");
        }
        List<JsonNode> copies = new ArrayList<>(parts.size());
        for (JsonNode part : parts) {
            if (!part.isObject()) {
                throw ApiException.badRequest("each part must be an object");
            }
            JsonNode type = part.get("type");
            if (type == null || !type.isTextual()) {
                throw ApiException.badRequest("each part needs a string type");
            }
            Inputs.text(type.textValue(), "part type", Inputs.MAX_PART_TYPE);
            if ("text".equals(type.textValue())) {
                JsonNode text = part.get("text");
                if (text == null || !text.isTextual()) {
                    throw ApiException.badRequest("a text part needs a string text");
                }
                Inputs.text(text.textValue(), "text", Inputs.MAX_TEXT);
            }
            copies.add(storedCopy(part));
        }
        return copies;
    }

    /**
     * Returns a deep copy of a part to keep for as long as its message is stored: it shares no mutable node with
     * the request, its map is sized to its fields (a default one keeps a table of 16 for a text part's two), and
     * a {@code "type": "text"} shares one immutable node. Field order is kept: the bytes on the wire are the same.
     */
    private static JsonNode storedCopy(JsonNode part) {
        Map<String, JsonNode> fields = new LinkedHashMap<>(part.size(), 1f);
        for (Map.Entry<String, JsonNode> field : part.properties()) {
            JsonNode value = field.getValue();
            boolean textType = "type".equals(field.getKey()) && TEXT_TYPE.equals(value);
            fields.put(field.getKey(), textType ? TEXT_TYPE : value.deepCopy());
        }
        return new ObjectNode(JsonNodeFactory.instance, fields);
    }
}
