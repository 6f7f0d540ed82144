package dev.svc.chat.reference.dev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.service.MessageParts;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.List;

/** A dev API request's JSON body (an empty body reads as {@code {}}), with checks that answer 400. */
final class DevBody {

    private final JsonNode root;

    private DevBody(JsonNode root) {
        this.root = root;
    }

    static DevBody read(Context ctx, ObjectMapper mapper) {
        byte[] bytes = ctx.bodyAsBytes();
        if (bytes.length == 0) {
            return new DevBody(mapper.createObjectNode());
        }
        try {
            JsonNode root = mapper.readTree(bytes);
            if (root == null || !root.isObject()) {
                throw ApiException.badRequest("the body must be a JSON object");
            }
            return new DevBody(root);
        } catch (IOException e) {
            throw ApiException.badRequest("the body is not valid JSON");
        }
    }

    JsonNode root() {
        return root;
    }

    String userId(String field) {
        JsonNode value = root.get(field);
        return Inputs.userId(value != null && value.isTextual() ? value.textValue() : null, field);
    }

    String optionalText(String field, int max) {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return Inputs.text(value.textValue(), field, max);
    }

    Long optionalLong(String field, long min, long max) {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.canConvertToLong() || !value.isIntegralNumber() || value.asLong() < min || value.asLong() > max) {
            throw ApiException.badRequest(field + " must be a whole number from " + min + " to " + max);
        }
        return value.asLong();
    }

    /** Returns the message's parts: {@code parts} as the REST API takes them, or one text part from {@code text}. */
    List<JsonNode> parts(ObjectMapper mapper) {
        if (root.has("parts")) {
            return MessageParts.validate(root.get("parts"));
        }
        String text = optionalText("text", Inputs.MAX_TEXT);
        if (text == null) {
            throw ApiException.badRequest("text or parts is required");
        }
        ArrayNode parts = mapper.createArrayNode();
        parts.addObject().put("type", "text").put("text", text);
        return MessageParts.validate(parts);
    }
}
