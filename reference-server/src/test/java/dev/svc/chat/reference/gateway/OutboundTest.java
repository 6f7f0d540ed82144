package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The byte count that bounds a connection's outbound queue. */
class OutboundTest {

    @Test
    void utf8LengthMatchesTheEncoding() {
        for (String s : List.of("", "ascii", "caf\u00e9", "\u20ac100", "\ud83d\ude00 smile", "\u07ff\u0800\uffff",
                "42[\"new-message\",{\"text\":\"\u4e2d\u6587\"}]")) {
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, Outbound.utf8Length(s), s);
        }
    }
}
