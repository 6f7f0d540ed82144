package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.service.StrictJson;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A request's JSON object body with typed, validating accessors. Reading it enforces the 64 KiB limit on
 * both the declared Content-Length and the bytes actually sent, and decodes strictly ({@link StrictJson}). A field given as JSON {@code null} counts
 * as absent; unknown fields are ignored.
 */
final class JsonBody {

    private final ObjectNode node;

    private JsonBody(ObjectNode node) {
        this.node = node;
    }

    /** Reads the body of {@code ctx}: 413 if over the limit, 400 unless it is one JSON object. */
    static JsonBody read(Context ctx, ObjectMapper mapper) {
        return read(ctx.req(), mapper);
    }

    /** Reads the body of {@code request}: 413 if over the limit, 400 unless it is one JSON object. */
    static JsonBody read(HttpServletRequest request, ObjectMapper mapper) {
        long declared = request.getContentLengthLong();
        if (declared > Inputs.MAX_BODY_BYTES) {
            throw ApiException.payloadTooLarge(Inputs.MAX_BODY_BYTES);
        }
        byte[] bytes;
        try (InputStream in = request.getInputStream()) {
            // A declared length is read into an array of that size (Jetty delivers no more than it); without
            // one, one byte past the limit tells an oversized body.
            bytes = in.readNBytes(declared >= 0 ? (int) declared : Inputs.MAX_BODY_BYTES + 1);
        } catch (IOException e) {
            throw ApiException.badRequest("Cannot read the request body");
        }
        if (bytes.length > Inputs.MAX_BODY_BYTES) {
            throw ApiException.payloadTooLarge(Inputs.MAX_BODY_BYTES);
        }
        // Strict: well-formed UTF-8, bounded nesting, no lone surrogate or NUL in any string.
        JsonNode parsed = bytes.length == 0 ? null : StrictJson.parse(mapper, bytes);
        if (parsed == null || !parsed.isObject()) {
            throw ApiException.badRequest("The body must be a JSON object");
        }
        return new JsonBody((ObjectNode) parsed);
    }

    /** Returns whether the field is present, even as {@code null}. */
    boolean has(String field) {
        return node.has(field);
    }

    /** Returns the field's node, or null when absent or {@code null}. */
    JsonNode get(String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value;
    }

    /** Returns a required userId field. */
    String requiredUserId(String field) {
        JsonNode value = get(field);
        if (value == null || !value.isTextual()) {
            throw ApiException.badRequest(field + " is required and must be a string");
        }
        return Inputs.userId(value.textValue(), field);
    }

    /** Returns an optional string of 1 to {@code max} code points, or null. */
    String optionalText(String field, int max) {
        JsonNode value = get(field);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return Inputs.text(value.textValue(), field, max);
    }

    /** Returns an optional string (any length, for fields checked elsewhere), or null. */
    String optionalString(String field) {
        JsonNode value = get(field);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return value.textValue();
    }

    /** Returns a required identifier of 1 to {@code max} code points without control characters. */
    String requiredId(String field, int max) {
        return Inputs.id(requiredText(field, max), field);
    }

    /** Returns a required string of 1 to {@code max} code points. */
    String requiredText(String field, int max) {
        String value = optionalText(field, max);
        if (value == null) {
            throw ApiException.badRequest(field + " is required");
        }
        return value;
    }

    /** Returns an optional integer within {@code min..max}, or null. */
    Integer optionalInt(String field, int min, int max) {
        JsonNode value = get(field);
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()
                || value.longValue() < min || value.longValue() > max) {
            throw ApiException.badRequest(field + " must be an integer from " + min + " to " + max);
        }
        return value.intValue();
    }

    /** Returns an optional integer of any {@code long} value, or null (range checked by the caller). */
    Long optionalLong(String field) {
        JsonNode value = get(field);
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw ApiException.badRequest(field + " must be an integer");
        }
        return value.longValue();
    }

    /** Returns an optional boolean, or null. */
    Boolean optionalBoolean(String field) {
        JsonNode value = get(field);
        if (value == null) {
            return null;
        }
        if (!value.isBoolean()) {
            throw ApiException.badRequest(field + " must be a boolean");
        }
        return value.booleanValue();
    }

    /** Returns a required array of userIds, duplicates removed, at most {@code max} of them. */
    List<String> requiredUserIds(String field, int max) {
        JsonNode value = get(field);
        if (value == null || !value.isArray()) {
            throw ApiException.badRequest(field + " is required and must be an array of userIds");
        }
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw ApiException.badRequest(field + " must contain only strings");
            }
            ids.add(Inputs.userId(item.textValue(), field + " item"));
        }
        if (ids.size() > max) {
            throw ApiException.badRequest(field + " has more than " + max + " userIds");
        }
        return new ArrayList<>(ids);
    }
}
