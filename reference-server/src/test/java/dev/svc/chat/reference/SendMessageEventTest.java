package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The extension "sends over the socket": the offer in the CONNECT answer, the {@code send-message} event's acks
 * and errors (those of REST), pipelined sends stored in the order they came, and the order guard after a
 * retryable refusal.
 */
class SendMessageEventTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private ReferenceServer server;
    private Http http;
    private String roomId;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).sendRateLimit(1000, 1000).build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice", "bob");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String send(String room, String clientMessageId, String text) {
        return "{\"roomId\":\"" + room + "\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text
                + "\"}],\"clientMessageId\":\"" + clientMessageId + "\"}";
    }

    @Test
    void theConnectAnswerOffersSocketSends() throws IOException {
        try (SocketClient alice = SocketClient.open(server)) {
            alice.expectOpen();
            alice.send("40{\"token\":\"" + http.mint(server.apiKey(), "alice") + "\"}");
            String answer = alice.next();
            assertTrue(answer.startsWith("40{\"sid\":"), answer);
            JsonNode connect = Http.JSON.readTree(answer.substring(2));
            assertTrue(connect.at("/svc/sendMessage").asBoolean(), answer);
        }
    }

    @Test
    void pipelinedSendsAreStoredAndAckedInTheOrderTheyCame() throws IOException {
        int n = 60;
        try (SocketClient bob = SocketClient.connectToken(server, http.mint(server.apiKey(), "bob"));
             SocketClient alice = SocketClient.connectToken(server, http.mint(server.apiKey(), "alice"))) {
            assertEquals("tenant-presence", bob.nextEvent().get(0).asText());
            assertTrue(bob.emitWithAck(0, "join-room", "{\"roomId\":\"" + roomId + "\"}").get("ok").asBoolean());
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < n; i++) { // each written before the next, none waiting for its ack
                alice.send("42" + (i + 1) + "[\"send-message\"," + send(roomId, "c" + i, "m" + i) + "]");
            }
            for (int i = 0; i < n; i++) {
                JsonNode ack = nextAck(alice, i + 1);
                assertTrue(ack.get("ok").asBoolean(), ack.toString());
                assertEquals("c" + i, ack.at("/message/clientMessageId").asText());
                assertEquals(i + 1, ack.at("/message/seq").asLong());
                assertEquals("alice", ack.at("/message/senderId").asText());
                JsonNode event = bob.nextEvent();
                assertEquals("new-message", event.get(0).asText());
                all.append(event.get(1).get("clientMessageId").asText()).append(' ');
            }
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < n; i++) {
                expected.append('c').append(i).append(' ');
            }
            assertEquals(expected.toString(), all.toString());
        }
    }

    @Test
    void acksCarryTheErrorsOfRestAndARepeatAnswersTheFirstMessage() {
        String other = http.createRoom(server.apiKey(), "bob");
        try (SocketClient alice = SocketClient.connectToken(server, http.mint(server.apiKey(), "alice"));
             SocketClient bot = SocketClient.connect(server, "{\"apiKey\":\"" + server.apiKey() + "\"}")) {
            JsonNode first = ack(alice, 0, "send-message", send(roomId, "same", "hello"));
            assertTrue(first.get("ok").asBoolean());
            JsonNode repeat = ack(alice, 1, "send-message", send(roomId, "same", "changed"));
            assertEquals(first.get("message"), repeat.get("message"));
            assertEquals("not_found", code(ack(alice, 2, "send-message", send("r_nope", "x", "a"))));
            assertEquals("forbidden", code(ack(alice, 3, "send-message", send(other, "x", "a"))));
            assertEquals("bad_request", code(ack(alice, 4, "send-message",
                    "{\"roomId\":\"" + roomId + "\",\"parts\":[],\"clientMessageId\":\"x\"}")));
            assertEquals("bad_request", code(ack(alice, 5, "send-message",
                    "{\"roomId\":\"" + roomId + "\",\"parts\":[{\"type\":\"text\",\"text\":\"a\"}]}")));
            assertEquals("bad_request", code(ack(alice, 6, "send-message", send(roomId, "x", "a".repeat(4001)))));
            assertEquals("bad_request", code(ack(alice, 7, "send-message", "{\"parts\":[]}")));
            assertEquals("forbidden", code(ack(alice, 8, "send-message",
                    "{\"roomId\":\"" + roomId + "\",\"senderId\":\"bob\",\"parts\":[{\"type\":\"text\",\"text\":\"a\"}],"
                            + "\"clientMessageId\":\"y\"}")));
            // the largest valid message of ASCII text fits; over 64 KiB of body is payload_too_large, as in REST
            StringBuilder parts = new StringBuilder();
            for (int i = 0; i < 10; i++) {
                parts.append(i == 0 ? "" : ",").append("{\"type\":\"text\",\"text\":\"").append("é".repeat(4000))
                        .append("\"}");
            }
            String big = "{\"roomId\":\"" + roomId + "\",\"parts\":[" + parts + "],\"clientMessageId\":\"big\"}";
            assertEquals("payload_too_large", code(ack(alice, 9, "send-message", big)));
            String largestAscii = big.replace("é", "a");
            assertTrue(ack(alice, 10, "send-message", largestAscii).get("ok").asBoolean());
            assertEquals("forbidden", code(ack(bot, 0, "send-message", send(roomId, "z", "a"))));
            // nothing but the two accepted sends was stored
            assertEquals(2, http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages",
                    http.mint(server.apiKey(), "alice"), null).json().get("messages").size());
        }
    }

    @Test
    void aRetryableRefusalBlocksTheRoomsLaterSendsUntilTheRefusedOneComesAgain() {
        try (ReferenceServer limited = Backends.builder().clock(clock).sendRateLimit(0.5, 2).build().start()) {
            Http h = new Http(limited);
            String room = h.createRoom(limited.apiKey(), "alice");
            String other = h.createRoom(limited.apiKey(), "alice");
            try (SocketClient alice = SocketClient.connectToken(limited, h.mint(limited.apiKey(), "alice"))) {
                assertTrue(ack(alice, 0, "send-message", send(room, "r0", "a")).get("ok").asBoolean());
                assertTrue(ack(alice, 1, "send-message", send(room, "r1", "a")).get("ok").asBoolean());
                JsonNode refused = ack(alice, 2, "send-message", send(room, "r2", "a"));
                assertEquals("rate_limited", code(refused));
                assertTrue(refused.at("/error/retryAfter").asLong() >= 1, refused.toString());
                clock.advance(Duration.ofSeconds(10)); // the limiter would let a send through now
                // ... but not r3 while r2 was not sent again: it would overtake r2
                assertEquals("rate_limited", code(ack(alice, 3, "send-message", send(room, "r3", "a"))));
                // another room is not held back
                assertTrue(ack(alice, 4, "send-message", send(other, "o0", "a")).get("ok").asBoolean());
                assertTrue(ack(alice, 5, "send-message", send(room, "r2", "a")).get("ok").asBoolean());
                clock.advance(Duration.ofSeconds(10));
                assertTrue(ack(alice, 6, "send-message", send(room, "r3", "a")).get("ok").asBoolean());
            }
            JsonNode messages = h.bearer("GET", "/v1/chat/rooms/" + room + "/messages",
                    h.mint(limited.apiKey(), "alice"), null).json().get("messages");
            List<String> ids = new ArrayList<>();
            for (JsonNode m : messages) {
                ids.add(m.get("clientMessageId").asText());
            }
            assertEquals(List.of("r0", "r1", "r2", "r3"), ids);
        }
    }

    /** Emits and returns the ack payload, skipping the events that come first (the sender gets its messages). */
    private static JsonNode ack(SocketClient client, int ackId, String event, String payloadJson) {
        client.send("42" + ackId + "[\"" + event + "\"," + payloadJson + "]");
        return nextAck(client, ackId);
    }

    private static JsonNode nextAck(SocketClient client, int ackId) {
        String prefix = "43" + ackId + "[";
        while (true) {
            String frame = client.next();
            if (frame.startsWith("42")) {
                continue;
            }
            assertTrue(frame.startsWith(prefix), "expected ack " + ackId + ", got " + frame);
            try {
                return Http.JSON.readTree(frame.substring(prefix.length() - 1)).get(0);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static String code(JsonNode ack) {
        assertEquals(false, ack.get("ok").asBoolean(), ack.toString());
        return ack.at("/error/code").asText();
    }
}
