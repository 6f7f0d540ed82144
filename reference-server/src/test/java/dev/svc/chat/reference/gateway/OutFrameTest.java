package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutFrameTest {

    @Test
    void sizeIsTheUtf8Length() {
        for (String s : new String[] {"", "42[\"a\"]", "é", "€", "😀", "a😀é€z"}) {
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, OutFrame.of(s).size(), s);
            assertEquals(s, OutFrame.of(s).toString());
        }
    }

    @Test
    void aFrameOfHeadPayloadAndTailHoldsTheBytesOfTheirJoinedText() {
        for (String json : new String[] {"", "{\"text\":\"hello\"}", "{\"text\":\"héllo\"}", "\"😀\"",
                "{\"a\":\"\\u0000\\\"\"}", "\u007f"}) {
            String joined = "43" + 17 + "[" + json + "]";
            assertArrayEquals(joined.getBytes(StandardCharsets.UTF_8), bytes(OutFrame.of("4317[", json, "]")),
                    json);
            assertEquals(joined, OutFrame.of("4317[", json, "]").toString());
        }
    }

    private static byte[] bytes(OutFrame frame) {
        ByteBuffer payload = frame.payload();
        byte[] all = new byte[payload.remaining()];
        payload.get(all);
        return all;
    }

    @Test
    void eachPayloadIsItsOwnViewOfTheSameBytes() {
        OutFrame frame = OutFrame.of("42[\"new-message\",{\"text\":\"héllo\"}]");
        ByteBuffer first = frame.payload();
        byte[] read = new byte[first.remaining()];
        first.get(read); // a write consumes its view
        ByteBuffer second = frame.payload();
        assertEquals(frame.size(), second.remaining());
        byte[] again = new byte[second.remaining()];
        second.get(again);
        assertArrayEquals(read, again);
    }
}
