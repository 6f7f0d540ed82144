package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates message parts: 1 to 10 objects, each with a string {@code type}; a {@code text} part needs a
 * {@code text} string of 1 to 4,000 code points. Other part types are kept as given (opaque objects), so
 * newer clients can send kinds this server does not know.
 */
public final class MessageParts {

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
            // Deep copy: the stored message must not share mutable nodes with the request.
            copies.add(PartFields.storedCopy(part));
        }
        return copies;
    }
}
