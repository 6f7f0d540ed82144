package dev.svc.chat.reference.service;

import dev.svc.chat.reference.contract.ApiException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each parser limit is named in its 400, and a field name twice in one object is refused. */
class StrictJsonTest {

    private final ObjectMapper mapper = Json.newMapper();

    private String refusal(String json) {
        ApiException e = assertThrows(ApiException.class,
                () -> StrictJson.parse(mapper, json.getBytes(StandardCharsets.UTF_8)));
        assertEquals("bad_request", e.code());
        return e.getMessage();
    }

    @Test
    void eachLimitIsNamed() {
        assertEquals("JSON nested deeper than 32 levels", refusal("[".repeat(33) + "]".repeat(33)));
        assertEquals("JSON number longer than 1000 characters", refusal("{\"n\":" + "9".repeat(5_000) + "}"));
        assertEquals("JSON number longer than 1000 characters", refusal("{\"n\":0." + "9".repeat(5_000) + "}"));
        assertEquals("JSON string longer than 1000000 characters",
                refusal("{\"s\":\"" + "x".repeat(1_000_001) + "\"}"));
        assertEquals("JSON field name longer than 50000 characters", refusal("{\"" + "k".repeat(50_001) + "\":1}"));
        // At each limit: accepted.
        StrictJson.parse(mapper, ("{\"n\":" + "9".repeat(1_000) + ",\"s\":\"" + "x".repeat(1_000_000) + "\"}")
                .getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void duplicateFieldNamesAreRefused() {
        assertEquals("Duplicate field name in a JSON object",
                refusal("{\"senderId\":\"other\",\"senderId\":\"me\"}"));
        assertEquals("Duplicate field name in a JSON object", refusal("{\"a\":{\"b\":1,\"b\":1}}"));
        assertEquals("Duplicate field name in a JSON object",
                assertThrows(ApiException.class, () -> StrictJson.parseText(mapper, "[{\"x\":1,\"x\":2}]"))
                        .getMessage());
        StrictJson.parse(mapper, "{\"a\":{\"b\":1},\"b\":{\"a\":1}}".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theServersMapperRefusesDuplicatesToo() {
        assertThrows(Exception.class, () -> mapper.readTree("{\"a\":1,\"a\":2}"));
    }

    /**
     * Found by fuzzing (RequestBodyFuzzTest): a number beyond a double's range read as Infinity, which writes
     * back as the string "Infinity", so a part's field changed type between the send and its echo.
     */
    @Test
    void aNumberBeyondTheRangeOfADoubleIsRefused() {
        for (String body : new String[] {"{\"n\":1e400}", "{\"parts\":[{\"type\":\"x\",\"size\":-1e309}]}"}) {
            ApiException e = assertThrows(ApiException.class,
                    () -> StrictJson.parse(mapper, body.getBytes(StandardCharsets.UTF_8)), body);
            assertEquals(400, e.status());
        }
        assertEquals("{\"n\":1.5E308}", StrictJson.parse(mapper, "{\"n\":1.5e308}".getBytes(StandardCharsets.UTF_8))
                .toString());
    }

    /**
     * An ASCII body is parsed from its bytes (no decode to a String first): it reads the same tree, and refuses
     * the same bodies with the same message, as the decode-then-parse path every other body takes.
     */
    @Test
    void anAsciiBodyReadsAndIsRefusedAsADecodedOne() {
        String[] bodies = {
            "{\"parts\":[{\"type\":\"text\",\"text\":\"hi \\u00e9 \\ud83d\\ude00\"}],\"clientMessageId\":\"c\"}",
            "{\"a\":1.5e3,\"b\":[true,false,null],\"c\":{}}", "  {\"a\":1}  ", "",
            "{\"s\":\"\\u0000\"}", "{\"s\":\"\\ud800\"}", "{\"\\udc00\":1}", "{\"a\":1,\"a\":2}", "{\"a\":1} x",
            "{\"a\":}", "{\"n\":1e400}", "[".repeat(33) + "]".repeat(33), "{\"s\":\"a\u0001b\"}",
        };
        for (String body : bodies) {
            byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
            assertEquals(true, StrictJson.isAscii(bytes), body);
            String viaText;
            try {
                JsonNode tree = StrictJson.parseText(mapper, body);
                StrictJson.requireWellFormedText(tree, "body");
                viaText = String.valueOf(tree);
            } catch (ApiException e) {
                viaText = "refused: " + e.getMessage();
            }
            String viaBytes;
            try {
                viaBytes = String.valueOf(StrictJson.parse(mapper, bytes));
            } catch (ApiException e) {
                viaBytes = "refused: " + e.getMessage();
            }
            assertEquals(viaText, viaBytes, body);
        }
        assertEquals(false, StrictJson.isAscii("{\"s\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8)));
        // Not ASCII, so decoded strictly first: an overlong encoding of '/' is refused.
        assertEquals("The body is not well-formed UTF-8", assertThrows(ApiException.class,
                () -> StrictJson.parse(mapper, new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'}))
                .getMessage());
    }
}
