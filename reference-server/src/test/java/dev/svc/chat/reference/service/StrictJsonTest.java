package dev.svc.chat.reference.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StrictJsonTest {
    private final ObjectMapper mapper = Json.newMapper();

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
}
