package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /v1/search/messages} (contract section 11), on the backend of the run ({@link Backends}). */
class SearchTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private ReferenceServer server;
    private Http http;
    private String room;
    private String alice;
    private String bob;
    private int sent;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).sendRateLimit(1000, 1000).build().start();
        http = new Http(server);
        room = http.createRoom(server.apiKey(), "alice", "bob");
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String send(String token, String roomId, String text) {
        clock.advance(Duration.ofMillis(1));
        Http.Response r = http.sendText(token, roomId, "c-" + ++sent, text);
        assertEquals(201, r.status(), r.json().toString());
        return r.json().get("id").asText();
    }

    private Http.Response search(String token, String query) {
        return http.bearer("GET", "/v1/search/messages?" + query, token, null);
    }

    private static String q(String text) {
        return "q=" + URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** Returns the texts of the results of a search that must answer 200. */
    private List<String> texts(String token, String query) {
        Http.Response r = search(token, query);
        assertEquals(200, r.status(), query + ": " + r.json());
        List<String> out = new ArrayList<>();
        r.json().get("results").forEach(result -> out.add(result.get("message").get("parts").get(0).get("text").asText()));
        return out;
    }

    @Test
    void wordsMatchCaseAndAccentInsensitivelyAllOfThem() {
        send(alice, room, "The café opens at nine");
        send(bob, room, "CAFE closed today");
        send(alice, room, "nothing to see");
        assertEquals(List.of("CAFE closed today", "The café opens at nine"), texts(alice, q("Café")));
        assertEquals(List.of("The café opens at nine"), texts(alice, q("cafe NINE")));
        assertEquals(List.of(), texts(alice, q("cafe tomorrow")));
    }

    @Test
    void phrasesMatchConsecutiveWordsInOrder() {
        send(alice, room, "quick brown fox");
        send(alice, room, "brown quick fox");
        send(alice, room, "quick, Brown! fox");
        assertEquals(List.of("quick, Brown! fox", "quick brown fox"), texts(alice, q("\"quick brown\"")));
        assertEquals(List.of(), texts(alice, q("\"fox quick\"")));
    }

    @Test
    void aPhraseNeverSpansTwoParts() {
        Http.Response r = http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice, Map.of(
                "clientMessageId", "parts", "parts", List.of(Map.of("type", "text", "text", "left end"),
                        Map.of("type", "text", "text", "start right"))));
        assertEquals(201, r.status());
        assertEquals(1, texts(alice, q("end start")).size(), "words of different parts match together");
        assertEquals(List.of(), texts(alice, q("\"end start\"")));
    }

    @Test
    void prefixesMatchWordStarts() {
        send(alice, room, "deployment done");
        send(alice, room, "redeploy later");
        assertEquals(List.of("deployment done"), texts(alice, q("deploy*")));
        assertEquals(List.of(), texts(alice, q("deploy")));
    }

    @Test
    void snippetsMarkEveryMatchedWord() {
        send(alice, room, "Deploy the deployer, then deploy again");
        JsonNode result = search(alice, q("deploy*")).json().get("results").get(0);
        assertEquals("\u0001Deploy\u0002 the \u0001deployer\u0002, then \u0001deploy\u0002 again",
                result.get("snippet").asText());
        String longText = "word ".repeat(100) + "needle " + "word ".repeat(100);
        send(alice, room, longText.strip());
        String snippet = search(alice, q("needle")).json().get("results").get(0).get("snippet").asText();
        String plain = snippet.replace("\u0001", "").replace("\u0002", "");
        assertEquals(200, plain.codePointCount(0, plain.length()));
        assertTrue(snippet.contains("\u0001needle\u0002"), snippet);
    }

    @Test
    void currentStateOnlyAnEditReindexesADeleteRemoves() {
        String id = send(alice, room, "original wording");
        assertEquals(1, texts(alice, q("original")).size());
        assertEquals(200, http.bearer("PATCH", "/v1/chat/rooms/" + room + "/messages/" + id, alice,
                Map.of("parts", List.of(Map.of("type", "text", "text", "revised text")))).status());
        assertEquals(List.of(), texts(alice, q("original")));
        assertEquals(List.of("revised text"), texts(alice, q("revised")));
        assertEquals(200, http.bearer("DELETE", "/v1/chat/rooms/" + room + "/messages/" + id, alice, null).status());
        assertEquals(List.of(), texts(alice, q("revised")));
    }

    @Test
    void aReactionKeepsTheMessageFound() {
        String id = send(alice, room, "react to this");
        assertEquals(200, http.bearer("POST", "/v1/chat/rooms/" + room + "/messages/" + id + "/reactions", bob,
                Map.of("emoji", "👍")).status());
        assertEquals(List.of("react to this"), texts(alice, q("react")));
    }

    @Test
    void newestFirstThenSeqDescendingAcrossRooms() {
        String other = http.createRoom(server.apiKey(), "alice");
        send(alice, room, "match one");
        send(alice, other, "match two");
        // Three at the same instant: seq decides.
        for (int i = 3; i <= 5; i++) {
            assertEquals(201, http.sendText(alice, room, "same-" + i, "match " + i).status());
        }
        assertEquals(List.of("match 5", "match 4", "match 3", "match two", "match one"), texts(alice, q("match")));
        assertEquals(List.of("match two"), texts(alice, q("match") + "&roomId=" + other));
    }

    @Test
    void pagesFollowTheCursorWithoutCapOrShift() {
        for (int i = 1; i <= 7; i++) {
            send(alice, room, "page item " + i);
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Http.Response r = search(alice, q("item") + "&limit=3" + (cursor == null ? "" : "&cursor=" + cursor));
            assertEquals(200, r.status(), r.json().toString());
            r.json().get("results").forEach(x -> seen.add(x.get("message").get("parts").get(0).get("text").asText()));
            cursor = r.json().has("nextCursor") ? r.json().get("nextCursor").asText() : null;
            if (pages++ == 0) {
                send(alice, room, "page item new"); // arrives between pages: shifts nothing
            }
        } while (cursor != null);
        assertEquals(List.of("page item 7", "page item 6", "page item 5", "page item 4", "page item 3", "page item 2",
                "page item 1"), seen);
        assertEquals(3, pages);
        assertEquals(List.of(), texts(alice, q("x")), "nothing matches x");
    }

    @Test
    void limitsAreChecked() {
        for (int i = 0; i < 25; i++) {
            send(alice, room, "many " + i);
        }
        assertEquals(20, texts(alice, q("many")).size());
        assertEquals(25, texts(alice, q("many") + "&limit=50").size());
        assertEquals(1, texts(alice, q("many") + "&limit=1").size());
        for (String bad : List.of("0", "51", "-1", "x", "1.5")) {
            assertEquals(400, search(alice, q("many") + "&limit=" + bad).status(), bad);
        }
    }

    @Test
    void aCursorOfAnotherSearchOrForgedIsRefused() {
        for (int i = 0; i < 3; i++) {
            send(alice, room, "cursor test " + i);
        }
        String cursor = search(alice, q("cursor") + "&limit=1").json().get("nextCursor").asText();
        assertEquals(200, search(alice, q("CURSOR") + "&limit=1&cursor=" + cursor).status(), "same terms");
        assertEquals(400, search(alice, q("test") + "&limit=1&cursor=" + cursor).status());
        assertEquals(400, search(alice, q("cursor") + "&roomId=" + room + "&cursor=" + cursor).status());
        assertEquals(400, search(bob, q("cursor") + "&limit=1&cursor=" + cursor).status(), "another user's");
        char last = cursor.charAt(cursor.length() - 2);
        String forged = cursor.substring(0, cursor.length() - 2) + (last == 'A' ? 'B' : 'A') + cursor.charAt(
                cursor.length() - 1);
        Http.Response r = search(alice, q("cursor") + "&limit=1&cursor=" + forged);
        assertEquals(400, r.status());
        assertEquals("bad_request", r.errorCode());
        assertEquals(400, search(alice, q("cursor") + "&cursor=not-a-cursor").status());
    }

    @Test
    void badQueriesAre400() {
        send(alice, room, "something");
        for (String bad : List.of("", "%20%20", "%22", "*", "-", "%22%20*%20-", "%F0%9F%99%82")) {
            Http.Response r = search(alice, "q=" + bad);
            assertEquals(400, r.status(), bad);
            assertEquals("bad_request", r.errorCode());
        }
        assertEquals(400, search(alice, "roomId=" + room).status(), "no q");
        assertEquals(400, search(alice, q("a".repeat(201))).status());
        assertEquals(200, search(alice, q("a".repeat(200))).status());
        assertEquals(400, search(alice, q("x") + "&senderId=" + URLEncoder.encode("bad id!", StandardCharsets.UTF_8))
                .status());
    }

    @Test
    void engineSyntaxIsPlainWords() {
        send(alice, room, "title x and some text");
        send(alice, room, "a AND b are letters");
        send(alice, room, "drop table messages");
        assertEquals(List.of("title x and some text"), texts(alice, q("title:x")));
        assertEquals(List.of("a AND b are letters"), texts(alice, q("a AND b")));
        assertEquals(List.of(), texts(alice, q("a OR title")), "OR is a word too");
        assertEquals(List.of("drop table messages"), texts(alice, q("'; DROP TABLE messages; --")));
        assertEquals(List.of("title x and some text"), texts(alice, q("title) (x")));
        assertEquals(400, search(alice, q("\\' || ' & !:*")).status(), "only words count");
    }

    @Test
    void emojiAndRightToLeftText() {
        send(alice, room, "שלום עולם 🙂");
        send(alice, room, "مرحبا بالعالم 🎉");
        assertEquals(List.of("שלום עולם 🙂"), texts(alice, q("עולם")));
        assertEquals(List.of("مرحبا بالعالم 🎉"), texts(alice, q("مرحبا 🎉")));
        String snippet = search(alice, q("שלום")).json().get("results").get(0).get("snippet").asText();
        assertEquals("\u0001שלום\u0002 עולם 🙂", snippet);
    }

    @Test
    void senderNarrows() {
        send(alice, room, "from alice");
        send(bob, room, "from bob");
        assertEquals(List.of("from alice"), texts(alice, q("from") + "&senderId=alice"));
        assertEquals(List.of(), texts(alice, q("from") + "&senderId=carol"));
    }

    @Test
    void threadNarrowsToItsReplies() {
        String root = send(alice, room, "plan for the launch");
        clock.advance(Duration.ofMillis(1));
        Http.Response reply = http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", bob, Map.of(
                "parts", List.of(Map.of("type", "text", "text", "launch at nine")), "clientMessageId", "c-reply",
                "threadId", root));
        assertEquals(201, reply.status(), reply.json().toString());
        send(bob, room, "launch elsewhere");
        assertEquals(3, texts(alice, q("launch")).size());
        assertEquals(List.of("launch at nine"), texts(alice, q("launch") + "&threadId=" + root));
        assertEquals(List.of("launch at nine"), texts(alice, q("launch") + "&roomId=" + room + "&threadId=" + root));
        assertEquals(List.of(), texts(alice, q("launch") + "&threadId=no-such-thread"));
        Http.Response page = search(alice, q("launch") + "&limit=1");
        String cursor = page.json().get("nextCursor").asText();
        assertEquals(400, search(alice, q("launch") + "&limit=1&threadId=" + root + "&cursor=" + cursor).status(),
                "a cursor is bound to its thread");
    }

    @Test
    void onlyTheUsersCurrentRooms() {
        String theirs = http.createRoom(server.apiKey(), "bob", "carol");
        send(alice, room, "shared secret here");
        send(bob, theirs, "private secret here");
        assertEquals(List.of("shared secret here"), texts(alice, q("secret")));
        assertEquals(2, texts(bob, q("secret")).size());
        Http.Response forbidden = search(alice, q("secret") + "&roomId=" + theirs);
        assertEquals(403, forbidden.status());
        assertEquals("forbidden", forbidden.errorCode());
        assertEquals(404, search(alice, q("secret") + "&roomId=00000000-0000-0000-0000-000000000000").status());
        // Bob leaves the shared room: it is not searched any more.
        assertEquals(200, http.apiKey("DELETE", "/v1/chat/rooms/" + room + "/members/bob", server.apiKey(), null)
                .status());
        assertEquals(List.of("private secret here"), texts(bob, q("secret")));
        assertEquals(403, search(bob, q("secret") + "&roomId=" + room).status());
        String carol = http.mint(server.apiKey(), "carol");
        assertEquals(List.of("private secret here"), texts(carol, q("secret")));
        String dave = http.mint(server.apiKey(), "dave");
        Http.Response none = search(dave, q("secret"));
        assertEquals(200, none.status());
        assertEquals(0, none.json().get("results").size());
        assertFalse(none.json().has("nextCursor"));
    }

    @Test
    void anotherTenantsWordsAreNeverFound() {
        TenantInfo globex = server.createTenant();
        http.apiKey("POST", "/v1/users", globex.apiKey(), Map.of("userId", "alice"));
        String globexRoom = http.createRoom(globex.apiKey(), "alice", "bob");
        String globexAlice = http.mint(globex.apiKey(), "alice");
        send(globexAlice, globexRoom, "globex confidential plan");
        send(alice, room, "acme public plan");
        assertEquals(List.of("acme public plan"), texts(alice, q("plan")));
        assertEquals(List.of("globex confidential plan"), texts(globexAlice, q("plan")));
        assertEquals(404, search(alice, q("plan") + "&roomId=" + globexRoom).status());
        send(globexAlice, globexRoom, "second plan");
        String cursor = search(globexAlice, q("plan") + "&limit=1").json().get("nextCursor").asText();
        assertEquals(400, search(alice, q("plan") + "&limit=1&cursor=" + cursor).status(), "another tenant's cursor");
    }

    @Test
    void anAcknowledgedMessageIsFoundWithinOneSecond() throws InterruptedException {
        Set<String> found = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            String id = send(alice, room, "fresh" + i + " message");
            long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            Http.Response r;
            do {
                r = search(bob, q("fresh" + i));
            } while (r.json().get("results").isEmpty() && System.nanoTime() < deadline);
            assertEquals(1, r.json().get("results").size(), "message " + i + " found within a second");
            found.add(r.json().get("results").get(0).get("message").get("id").asText());
            assertTrue(found.contains(id));
        }
    }

    @Test
    void credentialsAreChecked() {
        assertEquals(401, http.send("GET", "/v1/search/messages?q=x", null, Map.of()).status());
        assertEquals(401, http.apiKey("GET", "/v1/search/messages?q=x", server.apiKey(), null).status());
        Http.Response r = search(alice, q("x"));
        assertEquals(200, r.status());
        assertNotNull(r.json().get("results"));
    }
}
