package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A client that stops reading must not hold up REST requests or other connections. */
class SlowConsumerTest {

    @Test
    void stuckConnectionIsDroppedWhileOthersGetEverything() throws Exception {
        try (ReferenceServer server = ReferenceServer.builder().sendRateLimit(10_000, 10_000)
                .outboundQueueLimit(20).build().start()) {
            Http http = new Http(server);
            String roomId = http.createRoom(server.apiKey(), "alice");
            String token = http.mint(server.apiKey(), "alice");
            // ~40 KB per message: a few hundred are far more than the socket buffers of the stuck client.
            Map<String, String> part = Map.of("type", "text", "text", "x".repeat(4000));
            List<Map<String, String>> parts = Collections.nCopies(10, part);
            int total = 300;
            try (RawWebSocket stuck = new RawWebSocket(server.port());
                 SocketClient fast = SocketClient.connectToken(server, token)) {
                assertTrue(stuck.readText().startsWith("0{"));
                stuck.sendText("40{\"token\":\"" + token + "\"}");
                assertTrue(stuck.readText().startsWith("40{"));
                // From here on the stuck client reads nothing.
                for (int i = 0; i < total; i++) {
                    Http.Response r = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token,
                            Map.of("clientMessageId", "m" + i, "parts", parts));
                    assertEquals(201, r.status());
                    assertEquals(i + 1, fast.nextEvent().get(1).get("seq").asInt());
                }
                assertTrue(stuck.drainUntilClosed(SocketClient.EXPECTED_FRAME_DEADLINE), "the stuck connection was dropped");
            }
        }
    }

    @Test
    void queueIsBoundedInBytesAsWellAsFrames() throws Exception {
        // 1,000 frames allowed, but only 256 KiB: a hundred 40 KB messages overflow the bytes long before.
        try (ReferenceServer server = ReferenceServer.builder().sendRateLimit(10_000, 10_000)
                .outboundQueueBytes(256 * 1024).build().start()) {
            Http http = new Http(server);
            String roomId = http.createRoom(server.apiKey(), "alice");
            String token = http.mint(server.apiKey(), "alice");
            List<Map<String, String>> parts = Collections.nCopies(10, Map.of("type", "text", "text", "x".repeat(4000)));
            try (RawWebSocket stuck = new RawWebSocket(server.port());
                 SocketClient fast = SocketClient.connectToken(server, token)) {
                assertTrue(stuck.readText().startsWith("0{"));
                stuck.sendText("40{\"token\":\"" + token + "\"}");
                assertTrue(stuck.readText().startsWith("40{"));
                for (int i = 0; i < 100; i++) {
                    assertEquals(201, http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token,
                            Map.of("clientMessageId", "m" + i, "parts", parts)).status());
                    assertEquals(i + 1, fast.nextEvent().get(1).get("seq").asInt());
                }
                assertTrue(stuck.drainUntilClosed(SocketClient.EXPECTED_FRAME_DEADLINE), "dropped on bytes, under 1,000 frames");
            }
        }
    }
}
