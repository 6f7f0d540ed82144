package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The redaction of credentials in log lines, in the shapes Jetty and the gateway print them. */
class LogRedactionTest {

    private static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.abc-_DEF";

    @Test
    void redactsHeadersPayloadsAndCredentialShapes() {
        assertEquals("Authorization: [redacted]", LogRedaction.redact("Authorization: Bearer " + JWT));
        assertEquals("authorization=[redacted], host", LogRedaction.redact("authorization=Bearer xyz, host"));
        assertEquals("x-api-key: [redacted]", LogRedaction.redact("x-api-key: sk_test_abc"));
        assertEquals("X-Api-Key=[redacted]}", LogRedaction.redact("X-Api-Key=whatever}"));
        assertEquals("40{\"token\":\"[redacted]\"}", LogRedaction.redact("40{\"token\":\"" + JWT + "\"}"));
        assertEquals("40{\"apiKey\":\"[redacted]\"}", LogRedaction.redact("40{\"apiKey\":\"opaque\"}"));
        assertEquals("frame [redacted] and [redacted] and [redacted]",
                LogRedaction.redact("frame " + JWT + " and sk_live_Zz9 and whsec_abc+/="));
        assertEquals("GET /v1/chat/rooms 200 3 ms", LogRedaction.redact("GET /v1/chat/rooms 200 3 ms"));
    }

    @Test
    void aRedactingStreamRedactsWholeLinesWrittenInPieces() {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = LogRedaction.redacting(new PrintStream(sink, true, StandardCharsets.UTF_8));
        out.print("Authorization: Bearer ");
        out.print(JWT.substring(0, 10));
        out.println(JWT.substring(10));
        out.println("plain");
        assertEquals("Authorization: [redacted]" + System.lineSeparator() + "plain" + System.lineSeparator(),
                sink.toString(StandardCharsets.UTF_8));
    }
}
