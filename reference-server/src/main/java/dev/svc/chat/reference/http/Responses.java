package dev.svc.chat.reference.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes JSON answers, including the contract's error body. */
final class Responses {

    private final ObjectMapper mapper;

    Responses(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** Answers {@code status} with {@code body} serialized as JSON. */
    void json(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(json(body));
    }

    /** Answers {@code status} with {@code {"error":{"code","message"}}}. */
    void error(Context ctx, int status, String code, String message) {
        ctx.status(status).contentType("application/json").result(errorJson(code, message));
    }

    /** Returns the bytes of {@code {"error":{"code","message"}}}, as every error answer carries them. */
    byte[] errorJson(String code, String message) {
        Map<String, String> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        return json(Map.of("error", error));
    }

    /** Returns {@code body} serialized as JSON. */
    byte[] json(Object body) {
        try {
            return mapper.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + body.getClass().getSimpleName(), e);
        }
    }
}
