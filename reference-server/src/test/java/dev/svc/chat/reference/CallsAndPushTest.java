package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Call routes over raw HTTP with a virtual clock, push routes' validation, and the webhook settings. */
class CallsAndPushTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private ReferenceServer server;
    private Http http;
    private String roomId;
    private String alice;
    private String bob;

    @BeforeEach
    void start() {
        // A real-time timeout far away: only the virtual clock can make these calls ring out.
        server = Backends.builder().clock(clock).callRingTimeout(Duration.ofMinutes(10)).build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice", "bob");
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Http.Response startCall(String token, String kind) {
        return http.bearer("POST", "/v1/chat/rooms/" + roomId + "/calls", token, Map.of("kind", kind));
    }

    @Test
    void aCallAnswersTheContractShape() {
        Http.Response r = startCall(alice, "video");
        assertEquals(201, r.status());
        JsonNode call = r.json();
        assertEquals(36, call.get("id").asText().length());
        assertEquals(roomId, call.get("roomId").asText());
        assertEquals("video", call.get("kind").asText());
        assertEquals("alice", call.get("initiatorId").asText());
        assertEquals("ringing", call.get("status").asText());
        assertEquals("[\"alice\"]", call.get("participantIds").toString());
        assertEquals("2026-11-21T10:00:00.000Z", call.get("createdAt").asText());
        assertFalse(call.has("endedAt") || call.has("endReason"));
    }

    @Test
    void theInjectedClockRingsACallOut() {
        String id = startCall(alice, "audio").json().get("id").asText();
        clock.advance(Duration.ofMinutes(10).minusMillis(1));
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms/" + roomId + "/calls/active", bob, null).status());
        clock.advance(Duration.ofMillis(1));
        Http.Response active = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/calls/active", bob, null);
        assertEquals(404, active.status());
        assertEquals("not_found", active.json().get("error").get("code").asText());
        Http.Response accept = http.bearer("POST", "/v1/calls/" + id + "/accept", bob, null);
        assertEquals(409, accept.status());
        assertEquals(201, startCall(bob, "audio").status(), "a missed call frees the room");
    }

    @Test
    void checksComeInTheContractsOrder() {
        assertEquals(401, http.bearer("POST", "/v1/calls/nope/accept", "garbage", null).status());
        assertEquals(400, startCall(alice, "fax").status());
        assertEquals(404, http.bearer("POST", "/v1/calls/" + java.util.UUID.randomUUID() + "/end", alice, null)
                .status());
        assertEquals(401, http.apiKey("POST", "/v1/chat/rooms/" + roomId + "/calls", server.apiKey(),
                Map.of("kind", "audio")).status(), "an API key is not a user");
        http.apiKey("PATCH", "/v1/tenant/settings", server.apiKey(), Map.of("callsEnabled", false));
        Http.Response disabled = startCall(alice, "audio");
        assertEquals(403, disabled.status());
        assertEquals("calls_disabled", disabled.json().get("error").get("code").asText());
        assertEquals(404, http.bearer("POST", "/v1/chat/rooms/" + java.util.UUID.randomUUID() + "/calls", alice,
                Map.of("kind", "audio")).status(), "404 comes before 403");
    }

    @Test
    void pushRoutesCheckTheirInputs() {
        assertEquals(400, http.bearer("POST", "/v1/push/devices", alice, Map.of("token", "t1", "platform", "sms"))
                .status());
        assertEquals(400, http.bearer("POST", "/v1/push/devices", alice, Map.of("token", "a b", "platform", "fcm"))
                .status());
        assertEquals(401, http.apiKey("POST", "/v1/push/devices", server.apiKey(),
                Map.of("token", "t1", "platform", "fcm")).status());
        Http.Response ok = http.bearer("POST", "/v1/push/devices", alice, Map.of("token", "t1", "platform", "fcm"));
        assertEquals(201, ok.status());
        assertEquals("{\"token\":\"t1\",\"platform\":\"fcm\",\"userId\":\"alice\"}", ok.json().toString());
        // a token of alice's cannot be removed by bob: 204 either way, and alice keeps it
        assertEquals(204, http.bearer("DELETE", "/v1/push/devices/t1", bob, null).status());
        http.sendText(bob, roomId, "c-1", "hi");
        JsonNode pushes = http.apiKey("GET", "/v1/push/outbox?userId=alice", server.apiKey(), null).json();
        assertEquals(1, pushes.get("pushes").size());
        assertEquals(204, http.apiKey("DELETE", "/v1/push/outbox", server.apiKey(), null).status());
        assertEquals(0, http.apiKey("GET", "/v1/push/outbox", server.apiKey(), null).json().get("pushes").size());
    }

    @Test
    void theWebhookSecretIsGeneratedAndReplaceable() {
        String generated = http.apiKey("GET", "/v1/tenant/settings", server.apiKey(), null).json()
                .get("webhookSecret").asText();
        assertTrue(generated.startsWith("whsec_") && generated.length() == 6 + 32, generated);
        assertEquals(generated, server.webhookSecret());
        assertEquals(400, http.apiKey("PATCH", "/v1/tenant/settings", server.apiKey(),
                Map.of("webhookSecret", "whsec_short")).status());
        String mine = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        assertEquals(mine, http.apiKey("PATCH", "/v1/tenant/settings", server.apiKey(),
                Map.of("webhookSecret", mine)).json().get("webhookSecret").asText());
        assertEquals(401, http.bearer("GET", "/v1/tenant/settings", alice, null).status());
    }

    @Test
    void mainTakesTheWebhookSecretFromTheEnvironmentWithoutPrintingIt() {
        String secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        try (ReferenceServer fromEnv = Main.start(new String[] {"--port", "0"}, null, secret,
                new java.io.PrintStream(out, true), new java.io.PrintStream(err, true))) {
            assertEquals(secret, fromEnv.webhookSecret());
            assertFalse(out.toString().contains(secret), out.toString());
        }
        ReferenceServer refused = Main.start(new String[] {"--port", "0"}, null, "whsec_nope%%",
                new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));
        assertEquals(null, refused);
        assertTrue(err.toString().contains("SVC_WEBHOOK_SECRET") && !err.toString().contains("nope%%"),
                err.toString());
    }

    @Test
    void callEventsReachMembersAndApiKeyConnectionsThatJoinedTheRoom() {
        try (SocketClient backend = SocketClient.connect(server, "{\"apiKey\":\"" + server.apiKey() + "\"}");
             SocketClient bobSocket = SocketClient.connectToken(server, bob)) {
            assertTrue(backend.emitWithAck(1, "join-room", "{\"roomId\":\"" + roomId + "\"}").get("ok").asBoolean());
            String id = startCall(alice, "audio").json().get("id").asText();
            JsonNode invite = bobSocket.nextEvent();
            assertEquals("call-invite", invite.get(0).asText());
            assertEquals(id, invite.get(1).get("id").asText());
            assertEquals("call-invite", backend.nextEvent().get(0).asText());

            assertEquals(200, http.bearer("POST", "/v1/calls/" + id + "/decline", bob, null).status());
            JsonNode declined = backend.nextEvent();
            assertEquals("call-declined", declined.get(0).asText());
            assertEquals("declined", declined.get(1).get("status").asText());
            JsonNode ended = backend.nextEvent();
            assertEquals("call-ended", ended.get(0).asText());
            assertEquals("declined", ended.get(1).get("endReason").asText());
            assertEquals("call-declined", bobSocket.nextEvent().get(0).asText());
            assertEquals("call-ended", bobSocket.nextEvent().get(0).asText());
        }
    }
}
