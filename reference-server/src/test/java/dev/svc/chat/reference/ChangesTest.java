package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The room revision ({@code rev}), the changes route and the receipts route. */
class ChangesTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private ReferenceServer server;
    private Http http;
    private String roomId;
    private String alice;
    private String bob;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).sendRateLimit(1000, 1000).build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice", "bob");
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String messagePath(String messageId) {
        return "/v1/chat/rooms/" + roomId + "/messages/" + messageId;
    }

    private Http.Response changes(String token, String query) {
        return http.bearer("GET", "/v1/chat/rooms/" + roomId + "/changes" + query, token, null);
    }

    private long roomRev() {
        for (JsonNode room : http.bearer("GET", "/v1/chat/rooms", alice, null).json().get("rooms")) {
            if (room.get("id").asText().equals(roomId)) {
                return room.get("rev").asLong();
            }
        }
        throw new AssertionError("room not listed");
    }

    private static Map<String, Object> parts(String text) {
        return Map.of("parts", List.of(Map.of("type", "text", "text", text)));
    }

    @Test
    void everyChangeTakesTheNextRevAndRepeatsAndReceiptsTakeNone() {
        assertEquals(0, roomRev(), "no message yet");
        JsonNode first = http.sendText(alice, roomId, "c-1", "helo").json();
        assertEquals(1, first.get("rev").asLong());
        String id = first.get("id").asText();
        JsonNode second = http.sendText(bob, roomId, "c-2", "hi").json();
        assertEquals(2, second.get("rev").asLong());

        assertEquals(3, http.bearer("PATCH", messagePath(id), alice, parts("hello")).json().get("rev").asLong());
        // The same parts again change nothing, so they take no rev.
        assertEquals(3, http.bearer("PATCH", messagePath(id), alice, parts("hello")).json().get("rev").asLong());
        // An idempotent repeat of the send answers the current version and takes no rev.
        Http.Response repeat = http.sendText(alice, roomId, "c-1", "helo");
        assertEquals(200, repeat.status());
        assertEquals(3, repeat.json().get("rev").asLong());
        assertEquals("hello", repeat.json().get("parts").get(0).get("text").asText());

        assertEquals(4, react(bob, id, "👍").get("rev").asLong());
        assertEquals(5, react(bob, id, "👍").get("rev").asLong(), "toggling off is a change too");
        // Receipts never take a rev.
        assertEquals(200, http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", bob,
                Map.of("messageId", id)).status());
        assertEquals(5, roomRev());

        assertEquals(6, http.bearer("DELETE", messagePath(id), alice, null).json().get("rev").asLong());
        assertEquals(6, http.bearer("DELETE", messagePath(id), alice, null).json().get("rev").asLong(),
                "a second delete takes none");
        assertEquals(7, http.sendText(bob, roomId, "c-3", "after").json().get("rev").asLong());
        assertEquals(7, roomRev());
        // Refused changes take none either.
        assertEquals(409, http.bearer("PATCH", messagePath(id), alice, parts("x")).status());
        assertEquals(403, http.bearer("PATCH", messagePath(second.get("id").asText()), alice, parts("x")).status());
        assertEquals(7, roomRev());

        // History shows every message at the rev of its latest change.
        JsonNode history = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages", bob, null).json();
        assertEquals(List.of(6L, 2L, 7L), revs(history.get("messages")));
    }

    @Test
    void concurrentChangesTakeRevsWithoutHoles() throws Exception {
        String target = http.sendText(alice, roomId, "t", "target").json().get("id").asText();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<Http.Response>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < 60; i++) {
                String token = i % 2 == 0 ? alice : bob;
                int n = i;
                futures.add(pool.submit(() -> n % 3 == 0
                        ? http.bearer("POST", messagePath(target) + "/reactions", token, Map.of("emoji", "e" + n))
                        : http.sendText(token, roomId, "c" + n, "m" + n)));
            }
            Set<Long> revs = new HashSet<>();
            for (Future<Http.Response> f : futures) {
                Http.Response r = f.get(20, TimeUnit.SECONDS);
                assertTrue(r.status() == 200 || r.status() == 201, r.json().toString());
                assertTrue(revs.add(r.json().get("rev").asLong()), "rev taken twice: " + r.json());
            }
            for (long rev = 2; rev <= 61; rev++) {
                assertTrue(revs.contains(rev), "missing rev " + rev);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(61, roomRev());
    }

    @Test
    void changesListEachChangedMessageOnceInItsLatestStateByRev() {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            ids.add(http.sendText(alice, roomId, "p" + i, "m" + i).json().get("id").asText()); // revs 1..5
        }
        http.bearer("PATCH", messagePath(ids.get(1)), alice, parts("m2 edited"));      // rev 6: seq 2
        react(bob, ids.get(0), "🎉");                                                   // rev 7: seq 1
        http.bearer("DELETE", messagePath(ids.get(3)), alice, null);                   // rev 8: seq 4
        react(alice, ids.get(1), "👍");                                                 // rev 9: seq 2 again

        JsonNode all = changes(bob, "?since=0").json();
        assertEquals(9, all.get("rev").asLong());
        assertFalse(all.get("hasMore").asBoolean());
        assertEquals(List.of(3L, 5L, 7L, 8L, 9L), revs(all.get("messages")));
        assertEquals(List.of(3L, 5L, 1L, 4L, 2L), seqs(all.get("messages")));
        JsonNode latest = all.get("messages").get(4);
        assertEquals("m2 edited", latest.get("parts").get(0).get("text").asText());
        assertTrue(latest.get("reactions").has("👍"));
        assertTrue(all.get("messages").get(3).has("deletedAt"));

        JsonNode recent = changes(bob, "?since=5").json();
        assertEquals(List.of(7L, 8L, 9L), revs(recent.get("messages")));
        assertEquals(9, recent.get("rev").asLong());
        JsonNode none = changes(bob, "?since=9").json();
        assertEquals(0, none.get("messages").size());
        assertFalse(none.get("hasMore").asBoolean());
        assertEquals(9, none.get("rev").asLong());
        assertEquals(0, changes(bob, "?since=1000").json().get("messages").size(), "past the end is empty");
    }

    @Test
    void changesPageOnWithTheLastRev() {
        for (int i = 1; i <= 7; i++) {
            http.sendText(alice, roomId, "p" + i, "m" + i);
        }
        JsonNode page = changes(alice, "?since=0&limit=3").json();
        assertEquals(List.of(1L, 2L, 3L), revs(page.get("messages")));
        assertTrue(page.get("hasMore").asBoolean());
        assertEquals(7, page.get("rev").asLong());
        page = changes(alice, "?since=3&limit=3").json();
        assertEquals(List.of(4L, 5L, 6L), revs(page.get("messages")));
        assertTrue(page.get("hasMore").asBoolean());
        page = changes(alice, "?since=6&limit=3").json();
        assertEquals(List.of(7L), revs(page.get("messages")));
        assertFalse(page.get("hasMore").asBoolean());
        page = changes(alice, "?since=4&limit=3").json();
        assertEquals(List.of(5L, 6L, 7L), revs(page.get("messages")));
        assertFalse(page.get("hasMore").asBoolean(), "exactly the rest is not more");
        // The default limit is 100.
        for (int i = 8; i <= 105; i++) {
            http.sendText(bob, roomId, "p" + i, "m" + i);
        }
        page = changes(alice, "?since=0&limit=").json();
        assertEquals(100, page.get("messages").size());
        assertTrue(page.get("hasMore").asBoolean());
        assertEquals(100, changes(alice, "?since=0&limit=100").json().get("messages").size());
        assertEquals(5, changes(alice, "?since=100").json().get("messages").size());
    }

    @Test
    void changesValidationMembershipAndExistence() {
        for (String bad : List.of("", "?since=", "?limit=5", "?since=-1", "?since=1.5", "?since=+3", "?since=x",
                "?since=0&limit=0", "?since=0&limit=101", "?since=0&limit=x", "?since=1234567890123456789")) {
            Http.Response r = changes(alice, bad);
            assertEquals(400, r.status(), bad);
            assertEquals("bad_request", r.errorCode(), bad);
        }
        String mallory = http.mint(server.apiKey(), "mallory");
        Http.Response forbidden = changes(mallory, "?since=0");
        assertEquals(403, forbidden.status());
        assertEquals("forbidden", forbidden.errorCode());
        String unknownRoom = "/v1/chat/rooms/" + UUID.randomUUID() + "/changes";
        Http.Response notFound = http.bearer("GET", unknownRoom + "?since=0", alice, null);
        assertEquals(404, notFound.status());
        assertEquals("not_found", notFound.errorCode());
        assertEquals(404, http.bearer("GET", "/v1/chat/rooms/not-a-uuid/changes?since=0", alice, null).status());
        // Precedence: 401, then 400, then 404, then 403.
        assertEquals(401, changes("bad-token", "?since=-1").status());
        assertEquals(401, http.apiKey("GET", "/v1/chat/rooms/" + roomId + "/changes?since=0", server.apiKey(), null)
                .status());
        assertEquals(400, http.bearer("GET", unknownRoom + "?since=-1", alice, null).status());
        assertEquals(400, changes(mallory, "?since=-1").status());
        assertEquals(404, http.bearer("GET", unknownRoom + "?since=0", mallory, null).status());
    }

    @Test
    void anotherTenantsOrRoomsIdsAreNotVisible() {
        http.sendText(alice, roomId, "mine", "here");
        TenantInfo other = server.createTenant();
        String theirRoom = http.createRoom(other.apiKey(), "alice");
        String theirAlice = http.mint(other.apiKey(), "alice");
        http.sendText(theirAlice, theirRoom, "theirs", "there");
        // Same userId, other tenant: their room is unknown here, ours is unknown there.
        assertEquals(404, http.bearer("GET", "/v1/chat/rooms/" + theirRoom + "/changes?since=0", alice, null)
                .status());
        assertEquals(404, http.bearer("GET", "/v1/chat/rooms/" + theirRoom + "/receipts", alice, null).status());
        assertEquals(404, http.bearer("GET", "/v1/chat/rooms/" + roomId + "/changes?since=0", theirAlice, null)
                .status());
        // Another room of the same tenant has its own revisions and its own messages.
        String otherRoom = http.createRoom(server.apiKey(), "alice");
        JsonNode sent = http.sendText(alice, otherRoom, "o1", "other").json();
        assertEquals(1, sent.get("rev").asLong());
        JsonNode ours = changes(alice, "?since=0").json();
        assertEquals(1, ours.get("messages").size());
        assertEquals("here", ours.get("messages").get(0).get("parts").get(0).get("text").asText());
        assertEquals(1, ours.get("rev").asLong());
    }

    @Test
    void receiptsListTheCurrentReceiptOfEveryMemberWhoHasOne() {
        String first = http.sendText(alice, roomId, "r1", "1").json().get("id").asText();
        String second = http.sendText(alice, roomId, "r2", "2").json().get("id").asText();
        String path = "/v1/chat/rooms/" + roomId + "/receipts";
        JsonNode empty = http.bearer("GET", path, alice, null).json();
        assertEquals(0, empty.get("receipts").size());

        JsonNode bobs = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", bob, Map.of("messageId", second))
                .json();
        http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", alice, Map.of("messageId", first));
        // An older message does not move bob's receipt back.
        http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", bob, Map.of("messageId", first));
        Http.Response r = http.bearer("GET", path, bob, null);
        assertEquals(200, r.status());
        JsonNode receipts = r.json().get("receipts");
        assertEquals(2, receipts.size());
        assertEquals("alice", receipts.get(0).get("userId").asText(), "in the order of the room's members");
        assertEquals(first, receipts.get(0).get("messageId").asText());
        assertEquals(1, receipts.get(0).get("seq").asLong());
        assertEquals(bobs, receipts.get(1));

        // A removed member is not a member who has one.
        http.apiKey("DELETE", "/v1/chat/rooms/" + roomId + "/members/bob", server.apiKey(), null);
        receipts = http.bearer("GET", path, alice, null).json().get("receipts");
        assertEquals(1, receipts.size());
        assertEquals("alice", receipts.get(0).get("userId").asText());
        assertEquals(403, http.bearer("GET", path, bob, null).status());
        assertEquals(404, http.bearer("GET", "/v1/chat/rooms/" + UUID.randomUUID() + "/receipts", alice, null)
                .status());
        assertEquals(401, http.bearer("GET", path, "bad-token", null).status());
        assertEquals(401, http.apiKey("GET", path, server.apiKey(), null).status());
    }

    @Test
    void roomJsonCarriesRevInListsAdminAnswersAndTheJoinAck() {
        Http.Response created = http.apiKey("POST", "/v1/chat/rooms", server.apiKey(),
                Map.of("memberIds", List.of("alice")));
        assertEquals(0, created.json().get("rev").asLong());
        String fresh = created.json().get("id").asText();
        String id = http.sendText(alice, fresh, "a", "one").json().get("id").asText();
        http.bearer("POST", "/v1/chat/rooms/" + fresh + "/messages/" + id + "/reactions", alice,
                Map.of("emoji", "👍"));
        JsonNode added = http.apiKey("POST", "/v1/chat/rooms/" + fresh + "/members", server.apiKey(),
                Map.of("userIds", List.of("bob"))).json();
        assertEquals(2, added.get("rev").asLong());
        assertEquals(1, added.get("lastMessageSeq").asLong());
        for (JsonNode room : http.bearer("GET", "/v1/chat/rooms", alice, null).json().get("rooms")) {
            assertEquals(room.get("id").asText().equals(fresh) ? 2 : 0, room.get("rev").asLong());
        }
        try (SocketClient client = SocketClient.connectToken(server, alice)) {
            JsonNode ack = client.emitWithAck(0, "join-room", "{\"roomId\":\"" + fresh + "\"}");
            assertTrue(ack.get("ok").asBoolean());
            assertEquals(2, ack.get("room").get("rev").asLong());
        }
    }

    @Test
    void newMessageAndMessageUpdatedEventsCarryTheRev() {
        try (SocketClient watcher = SocketClient.connectToken(server, bob)) {
            Http.Response sent = http.sendText(alice, roomId, "e1", "hello");
            JsonNode event = watcher.nextEvent();
            assertEquals("new-message", event.get(0).asText());
            assertEquals(1, event.get(1).get("rev").asLong());
            assertEquals(sent.json(), event.get(1));
            String id = sent.json().get("id").asText();

            Http.Response edited = http.bearer("PATCH", messagePath(id), alice, parts("hello!"));
            assertUpdated(watcher.nextEvent(), edited.json(), 2);
            JsonNode reacted = react(bob, id, "👍");
            assertUpdated(watcher.nextEvent(), reacted, 3);
            JsonNode deleted = http.bearer("DELETE", messagePath(id), alice, null).json();
            assertUpdated(watcher.nextEvent(), deleted, 4);
            // A repeat and a second delete emit nothing: the next event is the next change.
            http.sendText(alice, roomId, "e1", "hello");
            http.bearer("DELETE", messagePath(id), alice, null);
            http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", alice, Map.of("messageId", id));
            JsonNode read = watcher.nextEvent();
            assertEquals("room-read", read.get(0).asText());
            assertFalse(read.get(1).has("rev"), "a receipt has no rev");
            http.sendText(alice, roomId, "e2", "again");
            JsonNode next = watcher.nextEvent();
            assertEquals("new-message", next.get(0).asText());
            assertEquals(5, next.get(1).get("rev").asLong());
        }
    }

    private static void assertUpdated(JsonNode event, JsonNode answer, long rev) {
        assertEquals("message-updated", event.get(0).asText());
        assertEquals(rev, event.get(1).get("rev").asLong());
        assertEquals(answer, event.get(1), "the event carries what the REST answer does");
    }

    private JsonNode react(String token, String messageId, String emoji) {
        Http.Response r = http.bearer("POST", messagePath(messageId) + "/reactions", token, Map.of("emoji", emoji));
        assertEquals(200, r.status(), r.json().toString());
        return r.json();
    }

    private static List<Long> revs(JsonNode messages) {
        List<Long> revs = new ArrayList<>();
        messages.forEach(m -> revs.add(m.get("rev").asLong()));
        return revs;
    }

    private static List<Long> seqs(JsonNode messages) {
        List<Long> seqs = new ArrayList<>();
        messages.forEach(m -> seqs.add(m.get("seq").asLong()));
        return seqs;
    }
}
