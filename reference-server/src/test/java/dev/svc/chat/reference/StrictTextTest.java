package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Invalid UTF-8 and invalid text, over REST and over the socket: malformed bytes, encoded surrogates, lone
 * surrogate escapes, NULs and control characters in ids, and nesting past the limit. None is stored.
 */
class StrictTextTest {

    private static ReferenceServer server;
    private static Http http;
    private static String token;
    private static String roomId;

    @BeforeAll
    static void start() {
        server = Backends.builder().sendRateLimit(10_000, 10_000).build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice");
        token = http.mint(server.apiKey(), "alice");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** The raw bytes of a send whose text is {@code before + bad + after}, the rest plain ASCII JSON. */
    private static byte[] sendWithTextBytes(String clientMessageId, byte[] bad) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("{\"clientMessageId\":\"" + clientMessageId + "\",\"parts\":[{\"type\":\"text\",\"text\":\"a")
                .getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(bad);
        out.writeBytes("b\"}]}".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private static Http.Response post(byte[] body) {
        return http.sendBytes("POST", "/v1/chat/rooms/" + roomId + "/messages", body,
                Map.of("Authorization", "Bearer " + token));
    }

    private static void assertBadRequest(Http.Response r, String messagePart) {
        assertEquals(400, r.status(), String.valueOf(r.json()));
        assertEquals("bad_request", r.errorCode());
        assertTrue(r.errorMessage().contains(messagePart), r.errorMessage());
    }

    private static int storedMessages() {
        Http.Response r = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages?limit=100", token, null);
        assertEquals(200, r.status());
        return r.json().get("messages").size();
    }

    @Test
    void malformedUtf8IsRefusedOverRest() {
        int before = storedMessages();
        Map<String, byte[]> cases = Map.of(
                "overlong", new byte[] {(byte) 0xC0, (byte) 0xAF},
                "surrogate", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                "above10ffff", new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                "truncated", new byte[] {(byte) 0xE2, (byte) 0x82},
                "stray", new byte[] {(byte) 0x80});
        cases.forEach((name, bad) -> assertBadRequest(post(sendWithTextBytes(name, bad)), "UTF-8"));
        // The same bytes, well formed, are stored: the refusal is about the encoding, not the characters.
        assertEquals(201, post(sendWithTextBytes("fine", "/\u00e9\ud83d\ude00".getBytes(StandardCharsets.UTF_8)))
                .status());
        assertEquals(before + 1, storedMessages());
    }

    @Test
    void loneSurrogatesAndNulsAreRefusedOverRest() {
        int before = storedMessages();
        byte[] loneHigh = sendWithTextBytes("c1", "\\ud800".getBytes(StandardCharsets.US_ASCII));
        assertBadRequest(post(loneHigh), "lone surrogate");
        byte[] loneLow = sendWithTextBytes("c2", "\\udc00x".getBytes(StandardCharsets.US_ASCII));
        assertBadRequest(post(loneLow), "lone surrogate");
        byte[] nulInText = sendWithTextBytes("c3", "\\u0000".getBytes(StandardCharsets.US_ASCII));
        assertBadRequest(post(nulInText), "NUL");
        Http.Response nulInId = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token,
                "{\"clientMessageId\":\"a\\u0000b\",\"parts\":[{\"type\":\"text\",\"text\":\"x\"}]}");
        assertBadRequest(nulInId, "NUL");
        Http.Response bellInId = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token,
                "{\"clientMessageId\":\"a\\u0007b\",\"parts\":[{\"type\":\"text\",\"text\":\"x\"}]}");
        assertBadRequest(bellInId, "control characters");
        Http.Response surrogateKey = http.apiKey("POST", "/v1/users", server.apiKey(),
                "{\"userId\":\"bob\",\"\\ud800\":1}");
        assertBadRequest(surrogateKey, "lone surrogate");
        // A pair written as two escapes is one character, and a line break is fine in text.
        Http.Response pair = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token,
                "{\"clientMessageId\":\"pair\",\"parts\":[{\"type\":\"text\",\"text\":\"\\ud83d\\ude00\\n\"}]}");
        assertEquals(201, pair.status());
        assertEquals("\ud83d\ude00\n", pair.json().get("parts").get(0).get("text").asText());
        assertEquals(before + 1, storedMessages());
    }

    @Test
    void nestingPastTheLimitSaysWhichLimit() {
        String deep = "[".repeat(40) + "]".repeat(40);
        Http.Response r = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token,
                "{\"clientMessageId\":\"deep\",\"parts\":[{\"type\":\"x\",\"v\":" + deep + "}]}");
        assertBadRequest(r, "nested deeper than 32 levels");
        // Far deeper (a parser-stack attack) is refused the same way, quickly.
        String veryDeep = "[".repeat(30_000) + "]".repeat(30_000);
        assertBadRequest(http.apiKey("POST", "/v1/users", server.apiKey(), "{\"a\":" + veryDeep + "}"),
                "nested deeper than 32 levels");
        // Within the limit an unknown part type keeps its nested content.
        String ok = "[".repeat(20) + "]".repeat(20);
        assertEquals(201, http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token,
                "{\"clientMessageId\":\"shallow\",\"parts\":[{\"type\":\"x\",\"v\":" + ok + "}]}").status());
    }

    @Test
    void bodiesAtAndPast64KiB() {
        String json = "{\"clientMessageId\":\"big\",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}]}";
        String exactly = json + " ".repeat(65_536 - json.length());
        assertEquals(65_536, exactly.getBytes(StandardCharsets.UTF_8).length);
        Http.Response at = post(exactly.getBytes(StandardCharsets.UTF_8));
        assertEquals(201, at.status(), String.valueOf(at.json()));
        Http.Response past = post((exactly + " ").getBytes(StandardCharsets.UTF_8));
        assertEquals(413, past.status());
        assertEquals("payload_too_large", past.errorCode());
    }

    @Test
    void badStringsInSocketEventsGetBadRequestAcks() {
        try (SocketClient client = SocketClient.connectToken(server, token)) {
            for (String payload : List.of(
                    "{\"roomId\":\"\\ud800\"}",
                    "{\"roomId\":\"" + roomId + "\\u0000\"}",
                    "{\"roomId\":\"a\\u0007b\"}",
                    "{\"roomId\":\"" + roomId + "\",\"extra\":\"\\udc00\"}")) {
                JsonNode ack = client.emitWithAck(1, "join-room", payload);
                assertFalse(ack.get("ok").asBoolean(), payload);
                assertEquals("bad_request", ack.get("error").get("code").asText(), payload);
            }
            assertTrue(client.emitWithAck(2, "join-room", "{\"roomId\":\"" + roomId + "\"}").get("ok").asBoolean());
            JsonNode typing = client.emitWithAck(3, "typing",
                    "{\"roomId\":\"" + roomId + "\",\"isTyping\":true,\"note\":\"\\ud800\"}");
            assertEquals("bad_request", typing.get("error").get("code").asText());
            JsonNode name = client.emitWithAck(4, "typ\\ud800ing", "{}");
            assertEquals("bad_request", name.get("error").get("code").asText());
            // The connection is still fine after the refusals.
            assertTrue(client.emitWithAck(5, "typing", "{\"roomId\":\"" + roomId + "\",\"isTyping\":true}")
                    .get("ok").asBoolean());
        }
    }

    @Test
    void malformedFramesCloseTheSocketAndTheServerGoesOn() throws Exception {
        byte[][] badFrames = {
            {'4', '2', '[', '"', 't', (byte) 0xC0, (byte) 0xAF, '"', ']'},
            {'4', '2', '[', '"', 't', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', ']'},
            {'4', '2', '[', '"', 't', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"', ']'},
            ("42[\"join-room\"," + "[".repeat(40) + "]".repeat(40) + "]").getBytes(StandardCharsets.US_ASCII),
            "42[\"join-room\",{\"roomId\":".getBytes(StandardCharsets.US_ASCII),
        };
        for (byte[] frame : badFrames) {
            try (RawWebSocket raw = new RawWebSocket(server.port())) {
                assertTrue(raw.readText().startsWith("0{"));
                raw.sendText("40{\"token\":\"" + token + "\"}");
                assertTrue(raw.readText().startsWith("40{"));
                raw.sendTextBytes(frame);
                assertTrue(raw.drainUntilClosed(SocketClient.EXPECTED_FRAME_DEADLINE), new String(frame, StandardCharsets.ISO_8859_1));
            }
        }
        try (SocketClient client = SocketClient.connectToken(server, token)) {
            assertTrue(client.emitWithAck(1, "join-room", "{\"roomId\":\"" + roomId + "\"}").get("ok").asBoolean());
        }
    }
}
