package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dev API under /v1/dev/ (docs/console.md): state, message tail, acting as a user, expiring sessions,
 * cutting connections, faults, tokens and the request log, each scoped to the key's tenant.
 */
class DevApiTest {

    private static final String ACME = "sk_test_acme_dev_api";
    private static final String GLOBEX = "sk_test_globex_dev_api";

    private ReferenceServer server;
    private Http http;
    private String room;
    private String aliceToken;

    @BeforeEach
    void start() {
        server = Backends.builder().tenant("acme", ACME).tenant("globex", GLOBEX).build().start();
        http = new Http(server);
        room = http.createRoom(ACME, "alice", "bob");
        aliceToken = http.mint(ACME, "alice");
        assertEquals(201, http.sendText(aliceToken, room, "c1", "hello from alice").status());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void stateListsUsersWithTheirConnectionsAndRoomsWithSeqAndRev() throws Exception {
        try (SocketClient socket = SocketClient.connectToken(server, aliceToken)) {
            JsonNode state = http.apiKey("GET", "/v1/dev/state", ACME, null).json();
            assertEquals("acme", state.path("tenant").path("id").asText());
            JsonNode alice = user(state, "alice");
            assertEquals(1, alice.path("connections").size(), state.toString());
            JsonNode connection = alice.path("connections").get(0);
            assertEquals("websocket", connection.path("transport").asText());
            assertTrue(connection.path("framesIn").asLong() >= 1, connection.toString());
            assertTrue(connection.path("framesOut").asLong() >= 2, connection.toString()); // open, CONNECT
            assertFalse(connection.path("connectedSince").asText().isEmpty());
            assertEquals(0, user(state, "bob").path("connections").size());
            JsonNode r = state.path("rooms").get(0);
            assertEquals(room, r.path("id").asText());
            assertEquals(List.of("alice", "bob"), List.of(r.path("members").get(0).asText(),
                    r.path("members").get(1).asText()));
            assertEquals(1, r.path("seq").asLong());
            assertEquals(1, r.path("rev").asLong());
        }
    }

    @Test
    void theTailShowsTheLatestMessagesAndSendingAsAUserReachesTheRoom() {
        try (SocketClient bob = SocketClient.connectToken(server, http.mint(ACME, "bob"))) {
            Http.Response sent = http.apiKey("POST", "/v1/dev/rooms/" + room + "/messages", ACME,
                    Map.of("userId", "alice", "text", "<img src=x onerror=alert(1)>"));
            assertEquals(201, sent.status(), sent.json().toString());
            assertEquals("alice", sent.json().path("senderId").asText());
            String frame = nextMatching(bob, "new-message");
            assertTrue(frame.contains("onerror=alert(1)"), frame);
            JsonNode tail = http.apiKey("GET", "/v1/dev/rooms/" + room + "/messages?limit=10", ACME, null).json();
            assertEquals(2, tail.path("messages").size());
            assertEquals("<img src=x onerror=alert(1)>",
                    tail.path("messages").get(1).path("parts").get(0).path("text").asText());
            assertEquals(2, tail.path("room").path("seq").asLong());
        }
    }

    @Test
    void editAndDeleteAsAUser() {
        String id = http.apiKey("GET", "/v1/dev/rooms/" + room + "/messages", ACME, null).json()
                .path("messages").get(0).path("id").asText();
        Http.Response edited = http.apiKey("PATCH", "/v1/dev/rooms/" + room + "/messages/" + id, ACME,
                Map.of("userId", "alice", "text", "edited"));
        assertEquals(200, edited.status(), edited.json().toString());
        assertEquals("edited", edited.json().path("parts").get(0).path("text").asText());
        Http.Response deleted = http.apiKey("DELETE", "/v1/dev/rooms/" + room + "/messages/" + id, ACME,
                Map.of("userId", "alice"));
        assertEquals(200, deleted.status(), deleted.json().toString());
        assertFalse(deleted.json().path("deletedAt").isMissingNode());
        // Only the sender may: bob is refused as through the REST API.
        assertEquals(403, http.apiKey("PATCH", "/v1/dev/rooms/" + room + "/messages/" + id, ACME,
                Map.of("userId", "bob", "text", "x")).status());
    }

    @Test
    void expireSessionsSendsSessionExpiredAndTheOldTokensAreRefused() {
        try (SocketClient socket = SocketClient.connectToken(server, aliceToken)) {
            Http.Response r = http.apiKey("POST", "/v1/dev/users/alice/expire-sessions", ACME, null);
            assertEquals(200, r.status(), r.json().toString());
            assertEquals(1, r.json().path("connections").asInt());
            String frame = nextMatching(socket, "session-expired");
            assertEquals("42[\"session-expired\",{\"code\":\"token_expired\"}]", frame);
            socket.awaitClose();
        }
        Http.Response refused = http.bearer("GET", "/v1/chat/rooms", aliceToken, null);
        assertEquals(401, refused.status());
        assertEquals("token_expired", refused.errorCode());
        // A token minted afterwards works, on REST and on the gateway.
        String fresh = http.mint(ACME, "alice");
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", fresh, null).status());
        SocketClient.connectToken(server, fresh).close();
        // Bob's sessions were not touched.
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", http.mint(ACME, "bob"), null).status());
    }

    @Test
    void disconnectCutsTheUsersConnections() {
        try (SocketClient socket = SocketClient.connectToken(server, aliceToken)) {
            Http.Response r = http.apiKey("POST", "/v1/dev/users/alice/disconnect", ACME, null);
            assertEquals(1, r.json().path("connections").asInt(), r.json().toString());
            socket.awaitClose();
        }
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", aliceToken, null).status()); // the token stays valid
    }

    @Test
    void aFaultForTheNextRequestsAnswersThemThenStops() {
        Http.Response added = http.apiKey("POST", "/v1/dev/faults", ACME,
                Map.of("status", 429, "count", 2, "retryAfterSeconds", 3, "routePrefix", "/v1/chat/"));
        assertEquals(201, added.status(), added.json().toString());
        for (int i = 0; i < 2; i++) {
            Http.Response r = http.sendText(aliceToken, room, "f" + i, "faulted");
            assertEquals(429, r.status());
            assertEquals("rate_limited", r.errorCode());
            assertEquals("3", r.raw().headers().firstValue("Retry-After").orElse(null));
        }
        assertEquals(201, http.sendText(aliceToken, room, "f2", "through").status());
        // Outside the prefix nothing was counted; the other tenant never sees the fault either.
        http.apiKey("POST", "/v1/dev/faults", ACME, Map.of("status", 500, "durationSeconds", 600));
        assertEquals(500, http.apiKey("GET", "/v1/tenant/settings", ACME, null).status());
        assertEquals(500, http.bearer("GET", "/v1/chat/rooms", aliceToken, null).status());
        assertEquals(200, http.apiKey("GET", "/v1/tenant/settings", GLOBEX, null).status());
        assertEquals(200, http.apiKey("GET", "/v1/dev/faults", GLOBEX, null).status());
        assertEquals(0, http.apiKey("GET", "/v1/dev/faults", GLOBEX, null).json().path("faults").size());
        assertEquals(1, http.apiKey("GET", "/v1/dev/faults", ACME, null).json().path("faults").size());
        assertEquals(200, http.apiKey("DELETE", "/v1/dev/faults", ACME, null).status());
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", aliceToken, null).status());
    }

    @Test
    void aLatencyFaultHoldsTheNextRequestThenAnswersIt() {
        Http.Response added = http.apiKey("POST", "/v1/dev/faults", ACME, Map.of("latencyMs", 400, "count", 1));
        assertEquals(201, added.status(), added.json().toString());
        long started = System.nanoTime();
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", aliceToken, null).status());
        long heldMs = (System.nanoTime() - started) / 1_000_000;
        assertTrue(heldMs >= 400, "held " + heldMs + " ms");
        assertEquals(0, http.apiKey("GET", "/v1/dev/faults", ACME, null).json().path("faults").size());
    }

    @Test
    void aFaultOutsideTheContractsStatusesIsRefused() {
        assertEquals(400, http.apiKey("POST", "/v1/dev/faults", ACME, Map.of("count", 2)).status());
        assertEquals(400, http.apiKey("POST", "/v1/dev/faults", ACME, Map.of("status", 200)).status());
        assertEquals(400, http.apiKey("POST", "/v1/dev/faults", ACME,
                Map.of("status", 500, "routePrefix", "/v1/dev/")).status());
    }

    @Test
    void mintedTokensWork() {
        Http.Response minted = http.apiKey("POST", "/v1/dev/tokens", ACME, Map.of("userId", "bob", "expiresIn", 60));
        assertEquals(200, minted.status(), minted.json().toString());
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", minted.json().path("token").asText(), null).status());
    }

    @Test
    void theRequestLogHoldsMethodRouteStatusAndUserButNeverACredential() {
        http.bearer("GET", "/v1/chat/rooms", aliceToken, null);
        http.bearer("GET", "/v1/chat/rooms/" + room + "/messages?limit=5", aliceToken, null);
        http.bearer("DELETE", "/v1/push/devices/device-token-secret-123", aliceToken, null);
        http.apiKey("GET", "/v1/tenant/settings", GLOBEX, null);
        Http.Response log = http.apiKey("GET", "/v1/dev/requests", ACME, null);
        String text = log.raw().body();
        JsonNode requests = log.json().path("requests");
        assertTrue(requests.size() >= 5, text); // the setup's and these
        JsonNode history = requests.get(requests.size() - 2);
        assertEquals("GET", history.path("method").asText());
        assertEquals("/v1/chat/rooms/" + room + "/messages", history.path("route").asText());
        assertEquals(200, history.path("status").asInt());
        assertEquals("alice", history.path("userId").asText());
        assertTrue(history.path("durationMs").isNumber());
        assertEquals("/v1/push/devices/{token}", requests.get(requests.size() - 1).path("route").asText());
        assertFalse(text.contains(aliceToken), "a token in the log");
        assertFalse(text.contains(ACME), "an API key in the log");
        assertFalse(text.contains("device-token-secret-123"), "a device token in the log");
        assertFalse(text.contains("limit=5"), "a query string in the log");
        assertFalse(text.contains("/v1/tenant/settings"), "globex's request in acme's log");
    }

    @Test
    void anotherTenantsKeySeesNothingOfTheFirst() throws Exception {
        try (SocketClient socket = SocketClient.connectToken(server, aliceToken)) {
            JsonNode state = http.apiKey("GET", "/v1/dev/state", GLOBEX, null).json();
            assertEquals("globex", state.path("tenant").path("id").asText());
            assertEquals(0, state.path("users").size(), state.toString());
            assertEquals(0, state.path("rooms").size(), state.toString());
            assertEquals(404, http.apiKey("GET", "/v1/dev/rooms/" + room + "/messages", GLOBEX, null).status());
            assertEquals(404, http.apiKey("POST", "/v1/dev/rooms/" + room + "/messages", GLOBEX,
                    Map.of("userId", "alice", "text", "intruder")).status());
            assertEquals(0, http.apiKey("POST", "/v1/dev/users/alice/expire-sessions", GLOBEX, null).json()
                    .path("connections").asInt());
            assertEquals(0, http.apiKey("POST", "/v1/dev/users/alice/disconnect", GLOBEX, null).json()
                    .path("connections").asInt());
            assertEquals(200, http.bearer("GET", "/v1/chat/rooms", aliceToken, null).status());
            assertFalse(socket.isClosed());
            String export = http.apiKey("GET", "/v1/dev/export", GLOBEX, null).raw().body();
            assertFalse(export.contains("alice") || export.contains(room), export);
            String requests = http.apiKey("GET", "/v1/dev/requests", GLOBEX, null).raw().body();
            assertFalse(requests.contains(room) || requests.contains("alice"), requests);
            // A token minted by globex for "alice" is globex's alice, not acme's.
            String gxAlice = http.apiKey("POST", "/v1/dev/tokens", GLOBEX, Map.of("userId", "alice")).json()
                    .path("token").asText();
            assertEquals(404, http.bearer("GET", "/v1/chat/rooms/" + room + "/messages", gxAlice, null).status());
        }
    }

    @Test
    void everyRouteWantsAnApiKey() {
        assertEquals(401, http.send("GET", "/v1/dev/state", null, Map.of()).status());
        assertEquals(401, http.bearer("GET", "/v1/dev/state", aliceToken, null).status());
        assertEquals(401, http.apiKey("GET", "/v1/dev/state", "sk_test_unknown_key", null).status());
    }

    @Test
    void theDevApiAndConsoleCanBeTurnedOff() {
        try (ReferenceServer off = ReferenceServer.builder().tenant("acme", ACME).devApi(false).build().start()) {
            Http offHttp = new Http(off);
            Http.Response r = offHttp.apiKey("GET", "/v1/dev/state", ACME, null);
            assertEquals(403, r.status());
            assertTrue(r.errorMessage().contains("--dev-api on"), r.errorMessage());
            assertEquals(403, offHttp.apiKey("POST", "/v1/dev/faults", ACME, Map.of("status", 500)).status());
            assertEquals(404, offHttp.send("GET", "/console/", null, Map.of()).status());
            assertTrue(off.consoleUrl().isEmpty());
            assertFalse(off.devApiEnabled());
        }
        assertTrue(server.devApiEnabled());
        assertEquals(server.apiUrl().replace("/v1", "/console/"), server.consoleUrl().orElseThrow());
    }

    @Test
    void exportThenImportIntoANewServerGivesTheSameState() {
        String id = http.sendText(aliceToken, room, "c2", "to be edited").json().path("id").asText();
        http.bearer("PATCH", "/v1/chat/rooms/" + room + "/messages/" + id, aliceToken,
                Map.of("parts", List.of(Map.of("type", "text", "text", "edited text"))));
        http.bearer("POST", "/v1/chat/rooms/" + room + "/messages/" + id + "/reactions", aliceToken,
                Map.of("emoji", "👍"));
        String gone = http.sendText(aliceToken, room, "c3", "to be deleted").json().path("id").asText();
        http.bearer("DELETE", "/v1/chat/rooms/" + room + "/messages/" + gone, aliceToken, null);
        http.apiKey("POST", "/v1/users", ACME, Map.of("userId", "carol", "username", "Carol"));
        JsonNode exported = http.apiKey("GET", "/v1/dev/export", ACME, null).json();

        try (ReferenceServer second = Backends.builder().tenant("acme", ACME).build().start()) {
            Http secondHttp = new Http(second);
            Http.Response imported = secondHttp.apiKey("POST", "/v1/dev/import", ACME, exported);
            assertEquals(200, imported.status(), imported.json().toString());
            assertEquals(3, imported.json().path("messages").asInt());
            JsonNode again = secondHttp.apiKey("GET", "/v1/dev/export", ACME, null).json();
            assertEquals(withoutExportTime(exported), withoutExportTime(again));
            // Idempotent: the same file again adds nothing.
            assertEquals(0, secondHttp.apiKey("POST", "/v1/dev/import", ACME, exported).json()
                    .path("messages").asInt());
            // The imported room works: history through the REST API, with its room id.
            String token = secondHttp.mint(ACME, "alice");
            JsonNode history = secondHttp.bearer("GET", "/v1/chat/rooms/" + room + "/messages", token, null).json();
            assertEquals(3, history.path("messages").size(), history.toString());
            assertEquals(201, secondHttp.sendText(token, room, "after-import", "next").status());
        }
    }

    @Test
    void aBadSnapshotIsRefusedWithTheReason() {
        Http.Response r = http.apiKey("POST", "/v1/dev/import", ACME, Map.of("format", "other"));
        assertEquals(400, r.status());
        assertTrue(r.errorMessage().contains("format"), r.errorMessage());
    }

    @Test
    void theSampleSeedLoadsAtStartAndAgainAddsNothing() throws Exception {
        java.nio.file.Path seed = java.nio.file.Path.of("..", "samples", "seed.json");
        try (ReferenceServer seeded = Backends.builder().seed(seed).build().start()) {
            Http seededHttp = new Http(seeded);
            JsonNode state = seededHttp.apiKey("GET", "/v1/dev/state", seeded.apiKey(), null).json();
            assertEquals(3, state.path("users").size(), state.toString());
            assertEquals(2, state.path("rooms").size(), state.toString());
            JsonNode general = seededHttp.apiKey("GET",
                    "/v1/dev/rooms/6f1c2b7e-0a4d-4c1e-9b8a-3d2f5e6a7b01/messages", seeded.apiKey(), null).json();
            assertEquals(3, general.path("messages").size());
            assertEquals(java.time.Instant.parse("2026-11-01T09:00:05Z"),
                    java.time.Instant.parse(general.path("messages").get(0).path("createdAt").asText()));
            assertEquals(List.of("alice", "carol"), List.of(
                    general.path("messages").get(1).path("reactions").path("👋").get(0).asText(),
                    general.path("messages").get(1).path("reactions").path("👋").get(1).asText()));
            ObjectNode file = (ObjectNode) Http.JSON.readTree(java.nio.file.Files.readAllBytes(seed));
            assertEquals(0, seededHttp.apiKey("POST", "/v1/dev/import", seeded.apiKey(), file).json()
                    .path("messages").asInt());
        }
    }

    @Test
    void theConsoleIsServedWithAStrictContentSecurityPolicy() {
        Http.Response page = http.send("GET", "/console/", null, Map.of());
        assertEquals(200, page.status());
        assertTrue(page.raw().headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        String csp = page.raw().headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"), csp);
        assertFalse(csp.contains("unsafe"), csp);
        assertEquals(200, http.send("GET", "/console/console.js", null, Map.of()).status());
        assertEquals(404, http.send("GET", "/console/..%2Fconsole.js", null, Map.of()).status());
        assertEquals(404, http.send("GET", "/console/missing.js", null, Map.of()).status());
    }

    @Test
    void theConsoleReadsThumbnailsOfItsTenantsImagesWithTheKeyAlone() throws Exception {
        TusClient tus = new TusClient(server.port());
        String image = tus.upload(aliceToken, FilesTest.png(400, 200, false), "photo.png", "image/png");
        String pdf = tus.upload(aliceToken, new byte[] {'%', 'P', 'D', 'F'}, "notes.pdf", "application/pdf");
        String unfinished = tus.createOk(aliceToken, 100, "half.png", "image/png");
        String path = "/v1/dev/files/" + image + "/thumbnail?size=64";

        TusClient.Answer thumb = tus.send("GET", path, Map.of("x-api-key", ACME), null);
        assertEquals(200, thumb.status(), thumb.toString());
        assertEquals("image/jpeg", thumb.header("Content-Type"));
        assertEquals("nosniff", thumb.header("X-Content-Type-Options"));
        assertTrue(thumb.header("Content-Security-Policy").contains("default-src 'none'"));
        java.awt.image.BufferedImage small = javax.imageio.ImageIO.read(
                new java.io.ByteArrayInputStream(thumb.body()));
        assertEquals(64, small.getWidth());
        assertEquals(32, small.getHeight());

        assertEquals(404, tus.send("GET", path, Map.of("x-api-key", GLOBEX), null).status(), "another tenant");
        assertEquals(401, tus.send("GET", path, Map.of(), null).status(), "no key");
        assertEquals(401, tus.send("GET", path, Map.of("Authorization", "Bearer " + aliceToken), null).status(),
                "a user's session is not the key");
        assertEquals(404, tus.send("GET", "/v1/dev/files/" + pdf + "/thumbnail", Map.of("x-api-key", ACME), null)
                .status(), "not an image");
        assertEquals(404, tus.send("GET", "/v1/dev/files/" + unfinished + "/thumbnail", Map.of("x-api-key", ACME),
                null).status(), "unfinished");
        assertEquals(404, tus.send("GET", "/v1/dev/files/nope/thumbnail", Map.of("x-api-key", ACME), null)
                .status(), "unknown");
        assertEquals(400, tus.send("GET", "/v1/dev/files/" + image + "/thumbnail?size=9", Map.of("x-api-key", ACME),
                null).status(), "size out of range");
    }

    private static JsonNode user(JsonNode state, String userId) {
        for (JsonNode user : state.path("users")) {
            if (userId.equals(user.path("userId").asText())) {
                return user;
            }
        }
        throw new AssertionError("no user " + userId + " in " + state);
    }

    private static JsonNode withoutExportTime(JsonNode snapshot) {
        ObjectNode copy = snapshot.deepCopy();
        copy.remove("exportedAt");
        return copy;
    }

    /** Returns the next frame that contains {@code text}, skipping others (presence), within the frame deadline. */
    private static String nextMatching(SocketClient socket, String text) {
        long deadline = System.nanoTime() + SocketClient.EXPECTED_FRAME_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            String frame = socket.poll(Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            if (frame != null && frame.contains(text)) {
                return frame;
            }
        }
        throw new AssertionError("no frame with " + text);
    }
}
