package dev.svc.chat.reference.service;

import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.contract.ApiException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.Json;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of what the HTTP handlers read from a request: the body ({@link StrictJson#parse}, which
 * {@code JsonBody} reads every body with, then the send's fields, {@link SendInput#read}) and the integer
 * query parameters ({@link Inputs#queryNumber}: {@code limit}, {@code before}, {@code after}, {@code since}).
 * Each accepts or refuses with a 400 {@link ApiException}, never another exception; what is accepted
 * re-encodes to an equal value.
 */
class RequestBodyFuzzTest {
    private static final ObjectMapper MAPPER = Json.newMapper();

    /** A body: parsed strictly or refused with 400; a parsed tree writes back to JSON that parses equal. */
    @FuzzTest
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void body(byte[] bytes) throws JsonProcessingException {
        JsonNode node;
        try {
            node = StrictJson.parse(MAPPER, bytes);
        } catch (ApiException e) {
            assertEquals(400, e.status(), e.getMessage());
            return;
        }
        if (node == null) return; // no value at all: JsonBody answers 400 itself
        byte[] again = MAPPER.writeValueAsBytes(node);
        assertEquals(node, StrictJson.parse(MAPPER, again), new String(again, StandardCharsets.UTF_8));
        if (!node.isObject()) return;
        try {
            SendInput input = SendInput.read(field -> SendInput.field(node, field));
            assertTrue(input.parts().size() >= 1 && input.parts().size() <= Inputs.MAX_PARTS, input.toString());
            assertTrue(!input.clientMessageId().isEmpty(), input.toString());
        } catch (ApiException e) {
            assertEquals(400, e.status(), e.getMessage());
        }
    }

    /** A query parameter's integer: null, a non-negative long that prints back to itself, or 400. */
    @FuzzTest
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void queryNumber(byte[] bytes) {
        String raw = new String(bytes, StandardCharsets.UTF_8);
        Long value;
        try {
            value = Inputs.queryNumber(raw, "limit");
        } catch (ApiException e) {
            assertEquals(400, e.status(), e.getMessage());
            return;
        }
        if (value == null) {
            assertTrue(raw.isEmpty());
            return;
        }
        assertTrue(value >= 0, raw);
        assertEquals(value, Inputs.queryNumber(Long.toString(value), "limit"), raw);
    }
}
