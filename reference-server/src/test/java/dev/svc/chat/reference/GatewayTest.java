package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Socket.IO v4 gateway, spoken frame by frame with the JDK WebSocket. */
class GatewayTest {

    private static final Duration SHORT = Duration.ofMillis(300);
    /**
     * The pong and CONNECT deadlines of the shared server: generous, since the test's threads answer them and a
     * loaded machine may hold a thread back for seconds; the tests of those deadlines start servers of their own.
     */
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private ReferenceServer server;
    private Http http;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock)
                .pingInterval(SHORT).pingTimeout(GENEROUS).connectTimeout(GENEROUS)
                .build().start();
        http = new Http(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void openPacketThenConnectWithToken() {
        String token = http.mint(server.apiKey(), "alice");
        try (SocketClient client = SocketClient.open(server)) {
            JsonNode open = client.expectOpen();
            assertEquals(20, open.get("sid").asText().length());
            assertEquals(0, open.get("upgrades").size());
            assertEquals(300, open.get("pingInterval").asInt());
            assertEquals(60_000, open.get("pingTimeout").asInt());
            assertEquals(1_000_000, open.get("maxPayload").asInt());
            client.send("40{\"token\":\"" + token + "\"}");
            String connected = client.next();
            // alice is in no room; ConnectPositionsTest covers the positions
            assertTrue(connected.matches("40\\{\"sid\":\"[A-Za-z0-9_-]{20}\",\"svc\":\\{\"sendMessage\":true},"
                    + "\"rooms\":\\[],\"at\":\"2026-11-21T10:00:00.000Z\"}"), connected);
        }
    }

    @Test
    void connectRefusalsAndRetryOnTheSameSocket() {
        String token = http.mint(server.apiKey(), "alice");
        try (SocketClient client = SocketClient.open(server)) {
            client.expectOpen();
            client.send("40");
            assertEquals("44{\"message\":\"unauthorized\",\"data\":{\"code\":\"unauthorized\"}}", client.next());
            client.send("40{\"token\":\"garbage\"}");
            assertEquals("44{\"message\":\"unauthorized\",\"data\":{\"code\":\"unauthorized\"}}", client.next());
            client.send("40{\"apiKey\":\"sk_test_wrong\"}");
            assertEquals("44{\"message\":\"unauthorized\",\"data\":{\"code\":\"unauthorized\"}}", client.next());
            client.send("40/admin,{\"token\":\"" + token + "\"}");
            assertEquals("44/admin,{\"message\":\"Invalid namespace\"}", client.next());
            client.send("40{\"token\":\"" + token + "\"}");
            assertTrue(client.next().startsWith("40{\"sid\":"));
        }
    }

    @Test
    void expiredTokenIsRefusedWithTokenExpired() {
        String token = mint("alice", 60);
        clock.advance(Duration.ofSeconds(61));
        try (SocketClient client = SocketClient.open(server)) {
            client.expectOpen();
            client.send("40{\"token\":\"" + token + "\"}");
            assertEquals("44{\"message\":\"token_expired\",\"data\":{\"code\":\"token_expired\"}}", client.next());
        }
    }

    @Test
    void apiKeyConnectionMayJoinAnyRoomOfItsTenant() {
        String roomId = http.createRoom(server.apiKey(), "bob");
        try (SocketClient client = SocketClient.connect(server, "{\"apiKey\":\"" + server.apiKey() + "\"}")) {
            JsonNode ack = client.emitWithAck(1, "join-room", "{\"roomId\":\"" + roomId + "\"}");
            assertTrue(ack.get("ok").asBoolean());
            String bob = http.mint(server.apiKey(), "bob");
            http.sendText(bob, roomId, "c1", "hello");
            JsonNode event = client.nextEvent();
            assertEquals("new-message", event.get(0).asText());
            assertEquals("hello", event.get(1).get("parts").get(0).get("text").asText());
        }
    }

    @Test
    void pingPongKeepsTheConnectionAlive() {
        // each pong has 3 s, and the pings go on for longer than that: only the pongs kept the connection
        Duration pongWithin = Duration.ofSeconds(3);
        try (ReferenceServer beating = Backends.builder().pingInterval(SHORT).pingTimeout(pongWithin)
                .connectTimeout(GENEROUS).build().start()) {
            String token = new Http(beating).mint(beating.apiKey(), "alice");
            try (SocketClient client = SocketClient.openWithoutPong(beating)) {
                client.expectOpen();
                client.send("40{\"token\":\"" + token + "\"}");
                assertTrue(client.next().startsWith("40"));
                assertEquals("2", client.next());
                client.send("3");
                long firstPong = System.nanoTime();
                int pings = 1;
                while (System.nanoTime() - firstPong < 2 * pongWithin.toNanos()) {
                    assertEquals("2", client.next(), "ping " + (pings + 1));
                    client.send("3");
                    pings++;
                }
                assertFalse(client.isClosed(), "closed after " + pings + " pings answered");
            }
        }
    }

    @Test
    void missingPongClosesTheConnection() {
        try (ReferenceServer beating = Backends.builder().pingInterval(SHORT).pingTimeout(SHORT).build().start();
             SocketClient client = SocketClient.openWithoutPong(beating)) {
            client.expectOpen();
            assertEquals("2", client.next());
            assertEquals(1005, client.awaitClose());
        }
    }

    @Test
    void noConnectWithinConnectTimeoutCloses() {
        try (ReferenceServer waiting = Backends.builder().connectTimeout(SHORT).build().start();
             SocketClient client = SocketClient.open(waiting)) {
            client.expectOpen();
            assertEquals(1005, client.awaitClose());
        }
    }

    @Test
    void clientPingClosesTheConnection() {
        try (SocketClient client = SocketClient.connectToken(server, http.mint(server.apiKey(), "alice"))) {
            client.send("2");
            assertEquals(1005, client.awaitClose());
        }
    }

    @Test
    void malformedPacketsCloseTheConnection() {
        String token = http.mint(server.apiKey(), "alice");
        for (String bad : List.of("42{}", "42[\"connect\",{}]", "42[1,2]", "42[\"x\",", "49", "4", "9", "",
                "451-[\"x\",{\"_placeholder\":true,\"num\":0}]", "40{\"token\":\"" + token + "\"}")) {
            try (SocketClient client = SocketClient.connectToken(server, token)) {
                client.send(bad);
                assertEquals(1005, client.awaitClose(), "after " + bad);
            }
        }
        // An EVENT before CONNECT is an invalid state as well.
        try (SocketClient client = SocketClient.open(server)) {
            client.expectOpen();
            client.send("42[\"join-room\",{}]");
            assertEquals(1005, client.awaitClose());
        }
    }

    @Test
    void binaryFrameAndOversizedFrameClose() {
        String token = http.mint(server.apiKey(), "alice");
        try (SocketClient client = SocketClient.connectToken(server, token)) {
            client.sendBinary(new byte[] {1, 2, 3});
            assertEquals(1005, client.awaitClose());
        }
        try (SocketClient client = SocketClient.connectToken(server, token)) {
            client.sendAsync("42[\"typing\",{\"blob\":\"" + "x".repeat(1_000_100) + "\"}]");
            assertEquals(1009, client.awaitClose());
        }
    }

    @Test
    void engineCloseAndSocketDisconnect() {
        String token = http.mint(server.apiKey(), "alice");
        try (SocketClient client = SocketClient.connectToken(server, token)) {
            client.send("1");
            assertEquals(1005, client.awaitClose());
        }
        try (SocketClient client = SocketClient.connectToken(server, token)) {
            client.send("41");
            // The session ended: events are refused as "invalid state", a new CONNECT is accepted.
            client.send("40{\"token\":\"" + token + "\"}");
            assertTrue(client.next().startsWith("40{\"sid\""));
        }
    }

    @Test
    void joinRoomAcksAndRefusals() {
        String roomId = http.createRoom(server.apiKey(), "alice", "bob");
        String other = http.createRoom(server.apiKey(), "bob");
        String theirs = http.createRoom(server.createTenant().apiKey(), "alice");
        try (SocketClient client = SocketClient.connectToken(server, http.mint(server.apiKey(), "alice"))) {
            JsonNode ok = client.emitWithAck(0, "join-room", "{\"roomId\":\"" + roomId + "\"}");
            assertTrue(ok.get("ok").asBoolean());
            assertEquals(roomId, ok.get("room").get("id").asText());
            assertEquals(2, ok.get("room").get("memberIds").size());

            JsonNode forbidden = client.emitWithAck(1, "join-room", "{\"roomId\":\"" + other + "\"}");
            assertFalse(forbidden.get("ok").asBoolean());
            assertEquals("forbidden", forbidden.get("error").get("code").asText());
            assertTrue(forbidden.get("error").has("message"));

            JsonNode notFound = client.emitWithAck(2, "join-room", "{\"roomId\":\"" + theirs + "\"}");
            assertEquals("not_found", notFound.get("error").get("code").asText());
            JsonNode bad = client.emitWithAck(3, "join-room", "{\"room\":1}");
            assertEquals("bad_request", bad.get("error").get("code").asText());
            JsonNode noArg = client.emitWithAck(4, "join-room", "null");
            assertEquals("bad_request", noArg.get("error").get("code").asText());
            JsonNode unknown = client.emitWithAck(5, "dance", "{}");
            assertEquals("bad_request", unknown.get("error").get("code").asText());
            JsonNode left = client.emitWithAck(6, "leave-room", "{\"roomId\":\"" + roomId + "\"}");
            assertTrue(left.get("ok").asBoolean());
            // Without an ack id: processed, nothing answered; an unknown one is ignored.
            client.send("42[\"join-room\",{\"roomId\":\"" + roomId + "\"}]");
            client.send("42[\"dance\"]");
            JsonNode still = client.emitWithAck(7, "leave-room", "{\"roomId\":\"" + roomId + "\"}");
            assertTrue(still.get("ok").asBoolean());
        }
    }

    @Test
    void newMessageGoesToEveryConnectionOfEveryMemberOnly() {
        String roomId = http.createRoom(server.apiKey(), "alice", "bob");
        String elsewhere = http.createRoom(server.apiKey(), "alice");
        String aliceToken = http.mint(server.apiKey(), "alice");
        String bobToken = http.mint(server.apiKey(), "bob");
        try (SocketClient alice1 = SocketClient.connectToken(server, aliceToken);
             SocketClient alice2 = SocketClient.connectToken(server, aliceToken);
             SocketClient bob = SocketClient.connectToken(server, bobToken);
             SocketClient carol = SocketClient.connectToken(server, http.mint(server.apiKey(), "carol"))) {
            // Each first connection of a user was announced to the tenant's token connections open before it.
            for (SocketClient c : List.of(alice1, alice2, alice1, alice2, bob)) {
                assertEquals("tenant-presence", c.nextEvent().get(0).asText());
            }
            // alice2 joined another room: messages of all her rooms still arrive.
            assertTrue(alice2.emitWithAck(0, "join-room", "{\"roomId\":\"" + elsewhere + "\"}")
                    .get("ok").asBoolean());
            Http.Response sent = http.sendText(bobToken, roomId, "c1", "hi all");
            assertEquals(201, sent.status());
            for (SocketClient c : List.of(alice1, alice2, bob)) {
                JsonNode event = c.nextEvent();
                assertEquals("new-message", event.get(0).asText());
                assertEquals(sent.json(), event.get(1));
            }
            // A retry emits nothing; the next message is the next event.
            assertEquals(200, http.sendText(bobToken, roomId, "c1", "hi all").status());
            http.sendText(aliceToken, roomId, "c2", "second");
            assertEquals(2, alice1.nextEvent().get(1).get("seq").asInt());
            // carol is in no room: her next frame is the answer to her next emit
            assertEquals("bad_request", carol.emitWithAck(0, "dance", "{}").at("/error/code").asText());
            carol.assertNoFrame();
        }
    }

    @Test
    void concurrentSendsArriveInSeqOrder() throws Exception {
        String roomId = http.createRoom(server.apiKey(), "alice", "bob");
        String aliceToken = http.mint(server.apiKey(), "alice");
        String bobToken = http.mint(server.apiKey(), "bob");
        try (SocketClient watcher = SocketClient.connectToken(server, aliceToken)) {
            Thread[] senders = new Thread[4];
            for (int t = 0; t < senders.length; t++) {
                String token = t % 2 == 0 ? aliceToken : bobToken;
                int thread = t;
                senders[t] = new Thread(() -> {
                    for (int i = 0; i < 8; i++) {
                        http.sendText(token, roomId, "t" + thread + "-" + i, "m");
                    }
                });
                senders[t].start();
            }
            for (int seq = 1; seq <= 32; seq++) {
                assertEquals(seq, watcher.nextEvent().get(1).get("seq").asInt());
            }
            for (Thread sender : senders) {
                sender.join(10_000);
            }
        }
    }

    @Test
    void expiryOnAnOpenConnectionSendsSessionExpiredThenDisconnects() {
        String token = mint("alice", 120);
        try (SocketClient client = SocketClient.connectToken(server, token)) {
            clock.advance(Duration.ofSeconds(120));
            // Seen at the next ping tick, against the virtual clock.
            assertEquals("42[\"session-expired\",{\"code\":\"token_expired\"}]", client.next());
            assertEquals("41", client.next());
            assertEquals(1005, client.awaitClose());
        }
    }

    @Test
    void expiryTimerFiresAtExpWithARealClock() {
        try (ReferenceServer real = Backends.builder().build().start()) {
            Http h = new Http(real);
            String token = h.apiKey("POST", "/v1/auth/token", real.apiKey(),
                    Map.of("userId", "alice", "expiresIn", 8)).json().get("token").asText();
            // exp is iat (whole seconds, truncated) + 8 s: at least 7 s to connect (a loaded machine may take
            // seconds), at most 8 s to wait.
            try (SocketClient client = SocketClient.connectToken(real, token)) {
                // No ping within 25 s here: only the timer at exp can produce this.
                assertEquals("42[\"session-expired\",{\"code\":\"token_expired\"}]",
                        client.next(Duration.ofSeconds(20)));
                assertEquals("41", client.next());
                assertEquals(1005, client.awaitClose());
            }
        }
    }

    @Test
    void pollingAndOldProtocolAreRefusedWith400() throws Exception {
        Http.Response polling = http.send("GET", "/socket.io/?EIO=4&transport=polling", null, Map.of());
        assertEquals(400, polling.status());
        assertEquals("Transport unknown", polling.json().get("message").asText());
        assertEquals(0, polling.json().get("code").asInt());
        for (String query : List.of("?EIO=3&transport=websocket", "?EIO=4&transport=polling", "")) {
            try {
                HttpClient.newHttpClient().newWebSocketBuilder()
                        .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/socket.io/" + query),
                                new WebSocket.Listener() { })
                        .join();
                throw new AssertionError("upgrade accepted for " + query);
            } catch (CompletionException e) {
                assertTrue(e.getCause() instanceof WebSocketHandshakeException, String.valueOf(e.getCause()));
                assertEquals(400, ((WebSocketHandshakeException) e.getCause()).getResponse().statusCode());
            }
        }
    }

    @Test
    void closeClosesEverySocket() {
        ReferenceServer closing = Backends.builder().build().start();
        SocketClient client = SocketClient.connectToken(closing, new Http(closing).mint(closing.apiKey(), "a"));
        closing.close();
        int code = client.awaitClose();
        assertTrue(code == 1005 || code == 1001 || code == 1006, "close code " + code);
        client.close();
    }

    private String mint(String userId, int expiresIn) {
        return http.apiKey("POST", "/v1/auth/token", server.apiKey(),
                Map.of("userId", userId, "expiresIn", expiresIn)).json().get("token").asText();
    }
}
