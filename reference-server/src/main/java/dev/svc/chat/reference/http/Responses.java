package dev.svc.chat.reference.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
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
        try {
            ctx.status(status).contentType("application/json").result(mapper.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + body.getClass().getSimpleName(), e);
        }
    }

    /** Answers {@code status} with {@code json}, a body already encoded by this mapper. */
    void json(Context ctx, int status, String json) {
        ctx.status(status).contentType("application/json").result(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Answers {@code status} with {@code {"error":{"code","message"}}}. */
    void error(Context ctx, int status, String code, String message) {
        Map<String, String> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        json(ctx, status, Map.of("error", error));
    }
}
