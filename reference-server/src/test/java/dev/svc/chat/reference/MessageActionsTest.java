package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Edit, delete, reactions, read receipts and the presence route, with their error codes. */
class MessageActionsTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private ReferenceServer server;
    private Http http;
    private String roomId;
    private String alice;
    private String bob;
    private String carol;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice", "bob");
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
        carol = http.mint(server.apiKey(), "carol");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String send(String token, String text) {
        return http.sendText(token, roomId, UUID.randomUUID().toString(), text).json().get("id").asText();
    }

    private String path(String messageId) {
        return "/v1/chat/rooms/" + roomId + "/messages/" + messageId;
    }

    private static Map<String, Object> parts(String text) {
        return Map.of("parts", List.of(Map.of("type", "text", "text", text)));
    }

    @Test
    void theAuthorEditsAndTheEditIsInHistoryAndInIdempotentRepeats() {
        Http.Response sent = http.sendText(alice, roomId, "c-1", "helo");
        String id = sent.json().get("id").asText();
        clock.advance(Duration.ofSeconds(5));
        Http.Response r = http.bearer("PATCH", path(id), alice, parts("hello"));
        assertEquals(200, r.status());
        assertEquals("hello", r.json().get("parts").get(0).get("text").asText());
        assertEquals("2026-11-21T10:00:05.000Z", r.json().get("editedAt").asText());
        assertEquals(1, r.json().get("seq").asLong());
        JsonNode history = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages", bob, null).json();
        assertEquals("hello", history.get("messages").get(0).get("parts").get(0).get("text").asText());
        assertEquals("hello", http.sendText(alice, roomId, "c-1", "helo").json().get("parts").get(0).get("text").asText());
        // the same parts again change nothing
        clock.advance(Duration.ofSeconds(5));
        assertEquals("2026-11-21T10:00:05.000Z",
                http.bearer("PATCH", path(id), alice, parts("hello")).json().get("editedAt").asText());
    }

    @Test
    void onlyTheAuthorMayEditOrDeleteAndOnlyMembersMayAct() {
        String id = send(alice, "mine");
        assertEquals(403, http.bearer("PATCH", path(id), bob, parts("x")).status());
        assertEquals(403, http.bearer("DELETE", path(id), bob, null).status());
        assertEquals("forbidden", http.bearer("PATCH", path(id), carol, parts("x")).json().get("error").get("code").asText());
        assertEquals(403, http.bearer("POST", path(id) + "/reactions", carol, Map.of("emoji", "👍")).status());
        assertEquals(403, http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", carol, Map.of("messageId", id)).status());
    }

    @Test
    void unknownIdsAre404AndBadBodiesAre400() {
        String id = send(alice, "x");
        String unknown = UUID.randomUUID().toString();
        assertEquals(404, http.bearer("PATCH", path(unknown), alice, parts("x")).status());
        assertEquals(404, http.bearer("DELETE", path("not-a-uuid"), alice, null).status());
        assertEquals(404, http.bearer("DELETE", "/v1/chat/rooms/" + unknown + "/messages/" + id, alice, null).status());
        assertEquals(404, http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", alice, Map.of("messageId", unknown)).status());
        assertEquals(400, http.bearer("PATCH", path(id), alice, Map.of("parts", List.of())).status());
        assertEquals(400, http.bearer("POST", path(id) + "/reactions", alice, Map.of("emoji", "")).status());
        assertEquals(400, http.bearer("POST", path(id) + "/reactions", alice, Map.of("emoji", "a b")).status());
        assertEquals(400, http.bearer("POST", path(id) + "/reactions", alice, Map.of("emoji", "x".repeat(33))).status());
        assertEquals(400, http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", alice, Map.of()).status());
        assertEquals(401, http.bearer("PATCH", path(id), "bad", parts("x")).status());
        assertEquals(401, http.apiKey("DELETE", path(id), server.apiKey(), null).status());
    }

    @Test
    void deleteIsSoftAndDeletedMessagesCannotBeEditedOrReactedTo() {
        String id = send(alice, "oops");
        http.bearer("POST", path(id) + "/reactions", bob, Map.of("emoji", "😮"));
        clock.advance(Duration.ofSeconds(1));
        JsonNode deleted = http.bearer("DELETE", path(id), alice, null).json();
        assertEquals("2026-11-21T10:00:01.000Z", deleted.get("deletedAt").asText());
        assertTrue(deleted.get("parts").isEmpty());
        assertTrue(deleted.get("reactions").isEmpty());
        Http.Response edit = http.bearer("PATCH", path(id), alice, parts("again"));
        assertEquals(409, edit.status());
        assertEquals("conflict", edit.json().get("error").get("code").asText());
        assertEquals(409, http.bearer("POST", path(id) + "/reactions", bob, Map.of("emoji", "👍")).status());
        Http.Response again = http.bearer("DELETE", path(id), alice, null);
        assertEquals(200, again.status());
        assertEquals(deleted, again.json());
        JsonNode history = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages", bob, null).json();
        assertEquals(1, history.get("messages").size(), "a deleted message keeps its place (and seq)");
    }

    @Test
    void reactionsToggleInOrderAndEmptyListsDisappear() {
        String id = send(alice, "hi");
        http.bearer("POST", path(id) + "/reactions", bob, Map.of("emoji", "👍"));
        http.bearer("POST", path(id) + "/reactions", alice, Map.of("emoji", "🎉"));
        JsonNode m = http.bearer("POST", path(id) + "/reactions", alice, Map.of("emoji", "👍")).json();
        List<String> emoji = new java.util.ArrayList<>();
        m.get("reactions").fieldNames().forEachRemaining(emoji::add);
        assertEquals(List.of("👍", "🎉"), emoji, "emoji keep the order they were first used in");
        assertEquals(List.of("bob", "alice"), List.of(m.get("reactions").get("👍").get(0).asText(),
                m.get("reactions").get("👍").get(1).asText()));
        assertFalse(m.has("editedAt"), "a reaction is not an edit");
        http.bearer("POST", path(id) + "/reactions", bob, Map.of("emoji", "👍"));
        m = http.bearer("POST", path(id) + "/reactions", alice, Map.of("emoji", "👍")).json();
        assertFalse(m.get("reactions").has("👍"));
        assertEquals(1, m.get("reactions").get("🎉").size());
    }

    @Test
    void receiptsNeverMoveBackwards() {
        String first = send(alice, "1");
        String second = send(alice, "2");
        clock.advance(Duration.ofSeconds(3));
        JsonNode r = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", bob, Map.of("messageId", second)).json();
        assertEquals(roomId, r.get("roomId").asText());
        assertEquals("bob", r.get("userId").asText());
        assertEquals(second, r.get("messageId").asText());
        assertEquals(2, r.get("seq").asLong());
        assertEquals("2026-11-21T10:00:03.000Z", r.get("readAt").asText());
        clock.advance(Duration.ofSeconds(3));
        JsonNode older = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", bob, Map.of("messageId", first)).json();
        assertEquals(r, older);
    }

    @Test
    void presenceListsTokenConnectionsOnly() throws Exception {
        assertEquals(0, http.bearer("GET", "/v1/presence", alice, null).json().get("online").size());
        try (SocketClient c1 = SocketClient.connectToken(server, carol);
             SocketClient keyed = SocketClient.connect(server, "{\"apiKey\":\"" + server.apiKey() + "\"}");
             SocketClient a1 = SocketClient.connectToken(server, alice)) {
            // alice's first connection announces her to the tenant's other token connections
            JsonNode event = c1.nextEvent();
            assertEquals("tenant-presence", event.get(0).asText());
            assertEquals("alice", event.get(1).get("userId").asText());
            assertTrue(event.get(1).get("online").asBoolean());
            JsonNode online = http.bearer("GET", "/v1/presence", bob, null).json().get("online");
            assertEquals(2, online.size(), "the API-key connection is nobody");
            assertEquals("alice", online.get(0).asText());
            assertEquals("carol", online.get(1).asText());
            // no tenant-presence event for the API-key connection: the answer to its next emit is its next frame
            assertEquals("bad_request", keyed.emitWithAck(0, "dance", "{}").at("/error/code").asText());
            keyed.assertNoFrame();
        }
        assertEquals(401, http.apiKey("GET", "/v1/presence", server.apiKey(), null).status());
    }
}
