package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Error bodies, statuses and their precedence; users, rooms and settings administration. */
class RestErrorsTest {

    private static ReferenceServer server;
    private static Http http;

    @BeforeAll
    static void start() {
        server = Backends.builder().build().start();
        http = new Http(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void unknownRouteAndWrongMethodAreNotFoundWithTheBody() {
        for (Http.Response r : List.of(
                http.apiKey("GET", "/v1/nope", server.apiKey(), null),
                http.apiKey("GET", "/", server.apiKey(), null),
                http.apiKey("PUT", "/v1/auth/token", server.apiKey(), Map.of()),
                http.apiKey("DELETE", "/v1/users", server.apiKey(), null),
                http.send("GET", "/v1/auth/token", null, Map.of()))) {
            assertEquals(404, r.status());
            assertEquals("not_found", r.errorCode());
            assertTrue(r.errorMessage() != null && !r.errorMessage().isEmpty());
            assertEquals("application/json", r.raw().headers().firstValue("Content-Type").orElse("")
                    .split(";")[0]);
        }
    }

    @Test
    void headIsAnUnknownMethodNotAnUnauthenticatedGet() {
        // Javalin would answer HEAD of a GET route with 200 before any credential check.
        assertEquals(404, http.send("HEAD", "/v1/chat/rooms", null, Map.of()).status());
        assertEquals(404, http.send("HEAD", "/v1/users/alice", null, Map.of("x-api-key", server.apiKey())).status());
    }

    @Test
    void bodyOver64KiBIsPayloadTooLarge() {
        String big = "{\"userId\":\"alice\",\"username\":\"" + "x".repeat(70_000) + "\"}";
        Http.Response r = http.send("POST", "/v1/users", big, Map.of("x-api-key", server.apiKey()));
        assertEquals(413, r.status());
        assertEquals("payload_too_large", r.errorCode());
        // Exactly at the limit is fine as far as size goes (here the username is then too long: 400).
        String atLimit = "{\"userId\":\"alice\",\"username\":\"" + "x".repeat(65_536 - 32) + "\"}";
        assertEquals(65_536, atLimit.length());
        assertEquals(400, http.send("POST", "/v1/users", atLimit, Map.of("x-api-key", server.apiKey())).status());
        // Without a Content-Length (chunked) the bytes actually sent are counted.
        Http.Response chunked = http.sendChunked("POST", "/v1/users", big, Map.of("x-api-key", server.apiKey()));
        assertEquals(413, chunked.status());
        assertEquals("payload_too_large", chunked.errorCode());
        // Without credentials the 401 wins.
        assertEquals(401, http.send("POST", "/v1/users", big, Map.of()).status());
    }

    @Test
    void malformedJsonIsBadRequest() {
        for (String body : List.of("{", "not json", "[1]", "\"s\"", "{} {}", "")) {
            Http.Response r = http.send("POST", "/v1/users", body, Map.of("x-api-key", server.apiKey()));
            assertEquals(400, r.status(), body);
            assertEquals("bad_request", r.errorCode(), body);
        }
    }

    @Test
    void usersUpsertAndGet() {
        Http.Response created = http.apiKey("POST", "/v1/users", server.apiKey(),
                Map.of("userId", "u1", "username", "One", "unknownField", 1));
        assertEquals(200, created.status());
        assertEquals("One", created.json().get("username").asText());
        Http.Response kept = http.apiKey("POST", "/v1/users", server.apiKey(), Map.of("userId", "u1"));
        assertEquals("One", kept.json().get("username").asText());
        assertEquals(created.json().get("createdAt"), kept.json().get("createdAt"));
        assertTrue(created.json().get("createdAt").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
        Http.Response missing = http.apiKey("GET", "/v1/users/nobody-here", server.apiKey(), null);
        assertEquals(404, missing.status());
        assertEquals("not_found", missing.errorCode());
        assertEquals(400, http.apiKey("GET", "/v1/users/bad%20id", server.apiKey(), null).status());
        assertEquals(400, http.apiKey("POST", "/v1/users", server.apiKey(), Map.of("userId", 5)).status());
        assertEquals(400, http.apiKey("POST", "/v1/users", server.apiKey(),
                Map.of("userId", "u1", "username", "")).status());
    }

    @Test
    void roomAdministration() {
        Http.Response created = http.apiKey("POST", "/v1/chat/rooms", server.apiKey(),
                Map.of("name", "General", "memberIds", List.of("r-a", "r-b", "r-a")));
        assertEquals(201, created.status());
        String roomId = created.json().get("id").asText();
        assertEquals(List.of("r-a", "r-b"), Http.JSON.convertValue(created.json().get("memberIds"), List.class));
        assertEquals(0, created.json().get("lastMessageSeq").asInt());
        assertFalse(created.json().has("lastMessageAt"));
        assertEquals("General", created.json().get("name").asText());
        // Members were created as users.
        assertEquals(200, http.apiKey("GET", "/v1/users/r-b", server.apiKey(), null).status());

        Http.Response added = http.apiKey("POST", "/v1/chat/rooms/" + roomId + "/members", server.apiKey(),
                Map.of("userIds", List.of("r-c")));
        assertEquals(200, added.status());
        assertEquals(3, added.json().get("memberIds").size());
        Http.Response removed = http.apiKey("DELETE", "/v1/chat/rooms/" + roomId + "/members/r-a",
                server.apiKey(), null);
        assertEquals(200, removed.status());
        assertEquals(List.of("r-b", "r-c"), Http.JSON.convertValue(removed.json().get("memberIds"), List.class));

        Http.Response noName = http.apiKey("POST", "/v1/chat/rooms", server.apiKey(), Map.of("memberIds", List.of()));
        assertEquals(201, noName.status());
        assertFalse(noName.json().has("name"));

        assertEquals(400, http.apiKey("POST", "/v1/chat/rooms", server.apiKey(), Map.of("name", "x")).status());
        assertEquals(400, http.apiKey("POST", "/v1/chat/rooms", server.apiKey(),
                Map.of("memberIds", List.of("bad id"))).status());
        String unknown = "/v1/chat/rooms/00000000-0000-0000-0000-000000000000/members";
        assertEquals(404, http.apiKey("POST", unknown, server.apiKey(), Map.of("userIds", List.of("x"))).status());
        // 400 (body) comes before 404 (room).
        assertEquals(400, http.apiKey("POST", unknown, server.apiKey(), Map.of("userIds", "x")).status());
        assertEquals(404, http.apiKey("DELETE", unknown + "/x", server.apiKey(), null).status());
    }

    @Test
    void otherTenantsRoomIsNotFound() {
        TenantInfo other = server.createTenant();
        String theirRoom = http.createRoom(other.apiKey(), "eve");
        Http.Response r = http.apiKey("POST", "/v1/chat/rooms/" + theirRoom + "/members", server.apiKey(),
                Map.of("userIds", List.of("alice")));
        assertEquals(404, r.status());
        assertEquals("not_found", r.errorCode());
        String token = http.mint(server.apiKey(), "eve");
        assertEquals(404, http.bearer("GET", "/v1/chat/rooms/" + theirRoom + "/messages", token, null).status());
        assertEquals(404, http.sendText(token, theirRoom, "c1", "hi").status());
        // And their user list is theirs.
        assertEquals(0, http.bearer("GET", "/v1/chat/rooms", token, null).json().get("rooms").size());
    }

    @Test
    void impersonationAndNonMemberAreForbidden() {
        String roomId = http.createRoom(server.apiKey(), "f-alice", "f-bob");
        String alice = http.mint(server.apiKey(), "f-alice");
        String mallory = http.mint(server.apiKey(), "f-mallory");
        Http.Response impersonation = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", alice,
                Map.of("clientMessageId", "c1", "senderId", "f-bob",
                        "parts", List.of(Map.of("type", "text", "text", "hi"))));
        assertEquals(403, impersonation.status());
        assertEquals("forbidden", impersonation.errorCode());
        assertEquals("Cannot act as another user", impersonation.errorMessage());
        Http.Response self = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", alice,
                Map.of("clientMessageId", "c1", "senderId", "f-alice",
                        "parts", List.of(Map.of("type", "text", "text", "hi"))));
        assertEquals(201, self.status());

        Http.Response nonMember = http.sendText(mallory, roomId, "c2", "hi");
        assertEquals(403, nonMember.status());
        assertEquals("forbidden", nonMember.errorCode());
        assertEquals(403, http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages", mallory, null).status());
        // Precedence: 400 before 404 before 403.
        assertEquals(400, http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", mallory,
                Map.of("clientMessageId", "c3")).status());
        assertEquals(404, http.sendText(mallory, "00000000-0000-0000-0000-000000000000", "c3", "x").status());
    }

    @Test
    void settingsPatchChangesOnlyGivenFields() {
        TenantInfo t = server.createTenant();
        Http.Response initial = http.apiKey("GET", "/v1/tenant/settings", t.apiKey(), null);
        assertEquals(200, initial.status());
        assertTrue(initial.json().get("autoCreateUsers").asBoolean());
        assertTrue(initial.json().get("callsEnabled").asBoolean());
        Http.Response set = http.apiKey("PATCH", "/v1/tenant/settings", t.apiKey(),
                Map.of("callsEnabled", false, "webhookUrl", "https://example.test/hook"));
        assertFalse(set.json().get("callsEnabled").asBoolean());
        assertTrue(set.json().get("autoCreateUsers").asBoolean());
        assertEquals("https://example.test/hook", set.json().get("webhookUrl").asText());
        Http.Response cleared = http.send("PATCH", "/v1/tenant/settings", "{\"webhookUrl\":null}",
                Map.of("x-api-key", t.apiKey()));
        assertFalse(cleared.json().has("webhookUrl"));
        assertFalse(cleared.json().get("callsEnabled").asBoolean());
        assertEquals(400, http.apiKey("PATCH", "/v1/tenant/settings", t.apiKey(),
                Map.of("webhookUrl", "ftp://x")).status());
        assertEquals(400, http.apiKey("PATCH", "/v1/tenant/settings", t.apiKey(),
                Map.of("autoCreateUsers", "yes")).status());
        // The dev tenant did not change.
        assertTrue(http.apiKey("GET", "/v1/tenant/settings", server.apiKey(), null)
                .json().get("callsEnabled").asBoolean());
    }
}
