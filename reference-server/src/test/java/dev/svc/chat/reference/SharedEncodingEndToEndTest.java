package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A new message is encoded once, for the sender's answer and its room's frames: the answer, the member's frame
 * and the answer to a repeat of the send (encoded on its own, from the stored message) carry the same bytes, over
 * REST and over the socket's {@code send-message}.
 */
class SharedEncodingEndToEndTest {

    private static final String TEXT = "h\u00e9 \\\"q\\\" </x> \ud83d\ude00";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-25T13:00:00.5Z"));
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

    private String body(String clientMessageId) {
        return "{\"parts\":[{\"type\":\"text\",\"text\":\"" + TEXT + "\"}],\"clientMessageId\":\""
                + clientMessageId + "\"}";
    }

    /** Returns bob's next {@code new-message} frame, skipping presence. */
    private static String nextNewMessage(SocketClient bob) {
        while (true) {
            String frame = bob.next();
            if (frame.startsWith("42[\"new-message\",")) {
                return frame;
            }
        }
    }

    @Test
    void restAnswerFrameAndRepeatCarryTheSameBytes() {
        String alice = http.mint(server.apiKey(), "alice");
        try (SocketClient bob = SocketClient.connectToken(server, http.mint(server.apiKey(), "bob"))) {
            String path = "/v1/chat/rooms/" + roomId + "/messages";
            Http.Response first = http.bearer("POST", path, alice, body("c-1"));
            assertEquals(201, first.status(), first.raw().body());
            String answer = first.raw().body();
            assertEquals("42[\"new-message\"," + answer + "]", nextNewMessage(bob));
            Http.Response repeat = http.bearer("POST", path, alice, body("c-1"));
            assertEquals(200, repeat.status());
            assertEquals(answer, repeat.raw().body()); // the repeat's answer is the stored message, encoded anew
            assertTrue(answer.contains("\ud83d\ude00"), answer);
        }
    }

    @Test
    void socketAckFrameAndRepeatCarryTheSameBytes() {
        try (SocketClient bob = SocketClient.connectToken(server, http.mint(server.apiKey(), "bob"));
             SocketClient alice = SocketClient.connectToken(server, http.mint(server.apiKey(), "alice"))) {
            String send = "[\"send-message\",{\"roomId\":\"" + roomId + "\"," + body("c-2").substring(1) + "]";
            alice.send("421" + send);
            String ack = nextAck(alice, 1);
            String frame = nextNewMessage(bob);
            String message = frame.substring("42[\"new-message\",".length(), frame.length() - 1);
            assertEquals("[{\"ok\":true,\"message\":" + message + "}]", ack);
            alice.send("422" + send);
            assertEquals(ack, nextAck(alice, 2)); // the repeat's ack holds the stored message, encoded anew
        }
    }

    /** Returns the array of ack {@code ackId}, skipping events. */
    private static String nextAck(SocketClient client, int ackId) {
        while (true) {
            String frame = client.next();
            if (frame.startsWith("43" + ackId + "[")) {
                return frame.substring(("43" + ackId).length());
            }
            assertTrue(frame.startsWith("42"), "expected ack " + ackId + ", got " + frame);
        }
    }
}
