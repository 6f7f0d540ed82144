package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Sending, idempotency, seq, history paging, the room list and the send rate limit. */
class MessagesTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private ReferenceServer server;
    private Http http;
    private String roomId;
    private String alice;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).sendRateLimit(1000, 1000).build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice", "bob");
        alice = http.mint(server.apiKey(), "alice");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void sendAnswersTheMessageShape() {
        Http.Response r = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", alice, Map.of(
                "clientMessageId", "c-1",
                "parts", List.of(Map.of("type", "text", "text", "hello"),
                        Map.of("type", "image", "url", "https://x.test/a.png", "w", 3))));
        assertEquals(201, r.status());
        JsonNode m = r.json();
        assertEquals(roomId, m.get("roomId").asText());
        assertEquals(1, m.get("seq").asLong());
        assertEquals("alice", m.get("senderId").asText());
        assertEquals("c-1", m.get("clientMessageId").asText());
        assertEquals("2026-11-21T10:00:00.000Z", m.get("createdAt").asText());
        assertTrue(m.get("reactions").isObject() && m.get("reactions").isEmpty());
        assertFalse(m.has("editedAt") || m.has("deletedAt"));
        assertEquals(36, m.get("id").asText().length());
        assertEquals(3, m.get("parts").get(1).get("w").asInt(), "unknown part types are kept as given");
    }

    @Test
    void sendValidatesParts() {
        List<Object> bad = List.of(
                List.of(),
                List.of(Map.of("type", "text")),
                List.of(Map.of("type", "text", "text", "")),
                List.of(Map.of("type", "text", "text", "x".repeat(4001))),
                List.of(Map.of("text", "no type")),
                List.of("not an object"),
                "not an array",
                java.util.Collections.nCopies(11, Map.of("type", "text", "text", "x")));
        for (Object parts : bad) {
            Http.Response r = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", alice,
                    Map.of("clientMessageId", "c", "parts", parts));
            assertEquals(400, r.status(), String.valueOf(parts));
        }
        // 4000 code points outside the BMP are 8000 UTF-16 units and still allowed.
        String emoji = "\uD83D\uDE00".repeat(4000);
        assertEquals(201, http.sendText(alice, roomId, "emoji", emoji).status());
        assertEquals(400, http.sendText(alice, roomId, "x".repeat(65), "hi").status());
        assertEquals(400, http.sendText(alice, roomId, "", "hi").status());
    }

    @Test
    void repeatedClientMessageIdAnswersTheFirstMessage() {
        Http.Response first = http.sendText(alice, roomId, "same", "one");
        Http.Response again = http.sendText(alice, roomId, "same", "two");
        assertEquals(201, first.status());
        assertEquals(200, again.status());
        assertEquals(first.json().get("id"), again.json().get("id"));
        assertEquals("one", again.json().get("parts").get(0).get("text").asText());
        // Another sender may use the same clientMessageId.
        String bob = http.mint(server.apiKey(), "bob");
        assertEquals(2, http.sendText(bob, roomId, "same", "bob's").json().get("seq").asInt());
    }

    @Test
    void concurrentSendsGetSeqWithoutHoles() throws Exception {
        String bob = http.mint(server.apiKey(), "bob");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Http.Response>> futures = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                String token = i % 2 == 0 ? alice : bob;
                String id = "c" + i;
                futures.add(pool.submit(() -> http.sendText(token, roomId, id, "m")));
            }
            Set<Long> seqs = new HashSet<>();
            for (Future<Http.Response> f : futures) {
                Http.Response r = f.get(20, TimeUnit.SECONDS);
                assertEquals(201, r.status());
                seqs.add(r.json().get("seq").asLong());
            }
            assertEquals(80, seqs.size());
            for (long s = 1; s <= 80; s++) {
                assertTrue(seqs.contains(s), "missing seq " + s);
            }
        } finally {
            pool.shutdownNow();
        }
        Http.Response page = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages?after=0&limit=100",
                alice, null);
        assertEquals(80, page.json().get("messages").size());
    }

    @Test
    void historyPages() {
        for (int i = 1; i <= 7; i++) {
            assertEquals(201, http.sendText(alice, roomId, "p" + i, "m" + i).status());
        }
        assertPage("", 1, 7, false);
        assertPage("?limit=3", 5, 7, true);
        assertPage("?limit=3&before=5", 2, 4, true);
        assertPage("?limit=3&before=4", 1, 3, false);
        assertPage("?limit=3&after=0", 1, 3, true);
        assertPage("?limit=3&after=4", 5, 7, false);
        assertPage("?limit=3&after=7", 0, -1, false);
        assertPage("?limit=3&before=1", 0, -1, false);
        assertPage("?limit=100&before=", 1, 7, false);
        assertPage("?before=&after=5&limit=", 6, 7, false);
        for (String bad : List.of("?limit=0", "?limit=101", "?limit=x", "?after=1&before=3", "?after=-1",
                "?before=1.5", "?limit=+3")) {
            Http.Response r = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages" + bad, alice, null);
            assertEquals(400, r.status(), bad);
            assertEquals("bad_request", r.errorCode(), bad);
        }
    }

    @Test
    void roomListIsMostRecentActivityFirst() {
        String older = roomId;
        clock.advance(Duration.ofSeconds(1));
        String newer = http.createRoom(server.apiKey(), "alice");
        clock.advance(Duration.ofSeconds(1));
        http.createRoom(server.apiKey(), "bob");
        JsonNode rooms = http.bearer("GET", "/v1/chat/rooms", alice, null).json().get("rooms");
        assertEquals(List.of(newer, older), ids(rooms));
        clock.advance(Duration.ofSeconds(1));
        http.sendText(alice, older, "x", "bump");
        rooms = http.bearer("GET", "/v1/chat/rooms", alice, null).json().get("rooms");
        assertEquals(List.of(older, newer), ids(rooms));
        assertEquals(1, rooms.get(0).get("lastMessageSeq").asInt());
        assertEquals("2026-11-21T10:00:03.000Z", rooms.get(0).get("lastMessageAt").asText());
    }

    @Test
    void sendRateLimitAnswers429WithRetryAfter() {
        try (ReferenceServer limited = Backends.builder().clock(clock).sendRateLimit(0.5, 3).build().start()) {
            Http h = new Http(limited);
            String room = h.createRoom(limited.apiKey(), "alice");
            String token = h.mint(limited.apiKey(), "alice");
            for (int i = 0; i < 3; i++) {
                assertEquals(201, h.sendText(token, room, "r" + i, "m").status());
            }
            Http.Response limitedResponse = h.sendText(token, room, "r3", "m");
            assertEquals(429, limitedResponse.status());
            assertEquals("rate_limited", limitedResponse.errorCode());
            assertEquals("2", limitedResponse.raw().headers().firstValue("Retry-After").orElse(""));
            // A retry of a stored message is not limited.
            assertEquals(200, h.sendText(token, room, "r0", "m").status());
            clock.advance(Duration.ofSeconds(2));
            assertEquals(201, h.sendText(token, room, "r3", "m").status());
        }
    }

    private void assertPage(String query, int firstSeq, int lastSeq, boolean hasMore) {
        Http.Response r = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages" + query, alice, null);
        assertEquals(200, r.status(), query);
        JsonNode messages = r.json().get("messages");
        List<Long> expected = new ArrayList<>();
        for (long s = firstSeq; firstSeq > 0 && s <= lastSeq; s++) {
            expected.add(s);
        }
        List<Long> actual = new ArrayList<>();
        messages.forEach(m -> actual.add(m.get("seq").asLong()));
        assertEquals(expected, actual, query);
        assertEquals(hasMore, r.json().get("hasMore").asBoolean(), query + " hasMore");
    }

    private static List<String> ids(JsonNode rooms) {
        List<String> ids = new ArrayList<>();
        rooms.forEach(r -> ids.add(r.get("id").asText()));
        return ids;
    }
}
