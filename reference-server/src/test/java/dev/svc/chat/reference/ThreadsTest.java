package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Replies, threads and mentions (contract section 10): the fields, their checks, the root's summary and rev. */
class ThreadsTest {

    private static final String OTHER_KEY = "sk_test_threads_other";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private ReferenceServer server;
    private Http http;
    private String roomId;
    private String otherRoomId;
    private String alice;
    private String bob;
    private String carol;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).sendRateLimit(1000, 1000)
                .tenant("main", "sk_test_threads_main").tenant("other", OTHER_KEY).build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice", "bob");
        otherRoomId = http.createRoom(server.apiKey(), "alice", "carol");
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
        carol = http.mint(server.apiKey(), "carol");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Http.Response send(String token, String room, Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("parts", List.of(Map.of("type", "text", "text", "hi")));
        body.put("clientMessageId", UUID.randomUUID().toString());
        return http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", token, body);
    }

    private JsonNode sent(String token, Map<String, Object> extra) {
        Http.Response r = send(token, roomId, extra);
        assertEquals(201, r.status(), r.raw().body());
        return r.json();
    }

    private String id(String token) {
        return sent(token, Map.of()).get("id").asText();
    }

    private JsonNode get(String token, String messageId) {
        Http.Response r = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages/" + messageId, token, null);
        assertEquals(200, r.status(), r.raw().body());
        return r.json();
    }

    private Http.Response delete(String token, String messageId) {
        return http.bearer("DELETE", "/v1/chat/rooms/" + roomId + "/messages/" + messageId, token, null);
    }

    private Http.Response history(String token, String query) {
        return http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages" + query, token, null);
    }

    private static void assertBadRequest(Http.Response r, String field) {
        assertEquals(400, r.status(), r.raw().body());
        assertEquals("bad_request", r.json().at("/error/code").asText());
        assertTrue(r.json().at("/error/message").asText().contains(field), r.raw().body());
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<Long> seqs(JsonNode page) {
        List<Long> out = new ArrayList<>();
        page.get("messages").forEach(m -> out.add(m.get("seq").asLong()));
        return out;
    }

    /** Returns the next message event, skipping presence. */
    private static JsonNode messageEvent(SocketClient client) {
        while (true) {
            JsonNode event = client.nextEvent();
            if (event.get(0).asText().contains("message")) {
                return event;
            }
        }
    }

    @Test
    void aPlainMessageCarriesNullLinksAnEmptyMentionsArrayAndNoThread() {
        JsonNode plain = sent(alice, Map.of());
        assertTrue(plain.has("replyToId") && plain.get("replyToId").isNull(), plain.toString());
        assertTrue(plain.has("threadId") && plain.get("threadId").isNull(), plain.toString());
        assertEquals(0, plain.get("mentions").size());
        assertTrue(plain.get("mentions").isArray());
        assertFalse(plain.has("thread"), plain.toString());
        assertEquals(plain, get(bob, plain.get("id").asText()));
    }

    @Test
    void aReplyQuotesAMessageOfTheRoomDeletedOrNot() {
        String quoted = id(alice);
        assertEquals(quoted, sent(bob, Map.of("replyToId", quoted)).get("replyToId").asText());
        assertEquals(200, delete(alice, quoted).status());
        JsonNode toDeleted = sent(bob, Map.of("replyToId", quoted));
        assertEquals(quoted, toDeleted.get("replyToId").asText());
        assertTrue(toDeleted.get("threadId").isNull());
        // a quote is no thread reply: the quoted message gets no summary
        assertFalse(get(alice, quoted).has("thread"));
    }

    @Test
    void aReplyToIdOfAnotherRoomAnotherTenantOrNoMessageIsRefused() {
        String elsewhere = send(alice, otherRoomId, Map.of()).json().get("id").asText();
        assertBadRequest(send(alice, roomId, Map.of("replyToId", elsewhere)), "replyToId");
        assertBadRequest(send(alice, roomId, Map.of("replyToId", UUID.randomUUID().toString())), "replyToId");
        assertBadRequest(send(alice, roomId, Map.of("replyToId", "not-an-id")), "replyToId");
        assertBadRequest(send(alice, roomId, Map.of("replyToId", 42)), "replyToId");
        String foreignRoom = http.createRoom(OTHER_KEY, "alice", "bob");
        String foreignAlice = http.mint(OTHER_KEY, "alice");
        String foreign = send(foreignAlice, foreignRoom, Map.of()).json().get("id").asText();
        assertBadRequest(send(alice, roomId, Map.of("replyToId", foreign)), "replyToId");
        assertEquals(0, history(alice, "").json().get("messages").size(), "nothing stored");
    }

    @Test
    void aThreadIdMustBeARootOfTheRoom() {
        String root = id(alice);
        String reply = sent(bob, Map.of("threadId", root)).get("id").asText();
        assertBadRequest(send(alice, roomId, Map.of("threadId", reply)), "threadId");
        String elsewhere = send(alice, otherRoomId, Map.of()).json().get("id").asText();
        assertBadRequest(send(alice, roomId, Map.of("threadId", elsewhere)), "threadId");
        assertBadRequest(send(alice, roomId, Map.of("threadId", UUID.randomUUID().toString())), "threadId");
        String foreignRoom = http.createRoom(OTHER_KEY, "alice", "bob");
        String foreign = send(http.mint(OTHER_KEY, "alice"), foreignRoom, Map.of()).json().get("id").asText();
        assertBadRequest(send(alice, roomId, Map.of("threadId", foreign)), "threadId");
        assertEquals(1, get(alice, root).at("/thread/replyCount").asInt(), "no refused reply counted");
    }

    @Test
    void mentionsAreMembersAtMostTwentyDistinctWithDuplicatesCollapsed() {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            members.add("m" + i);
        }
        List<String> all = new ArrayList<>(members);
        all.add("alice");
        String big = http.createRoom(server.apiKey(), all.toArray(new String[0]));
        JsonNode twenty = send(alice, big, Map.of("mentions", members.subList(0, 20))).json();
        assertEquals(members.subList(0, 20), texts(twenty.get("mentions")));
        assertBadRequest(send(alice, big, Map.of("mentions", members)), "mentions");
        List<String> repeated = new ArrayList<>(members.subList(0, 20));
        repeated.addAll(members.subList(0, 20));
        assertEquals(20, send(alice, big, Map.of("mentions", repeated)).json().get("mentions").size());

        assertEquals(List.of("bob", "alice"),
                texts(sent(alice, Map.of("mentions", List.of("bob", "alice", "bob"))).get("mentions")));
        assertBadRequest(send(alice, roomId, Map.of("mentions", List.of("bob", "carol"))), "mentions");
        assertBadRequest(send(alice, roomId, Map.of("mentions", "bob")), "mentions");
        assertBadRequest(send(alice, roomId, Map.of("mentions", List.of(7))), "mentions");
    }

    @Test
    void anEditMayChangeTheMentionsAndKeepsThemWhenItNamesNone() {
        String id = sent(alice, Map.of("mentions", List.of("bob"))).get("id").asText();
        String path = "/v1/chat/rooms/" + roomId + "/messages/" + id;
        Map<String, Object> parts = Map.of("type", "text", "text", "edited");
        Http.Response none = http.bearer("PATCH", path, alice, Map.of("parts", List.of(parts)));
        assertEquals(List.of("bob"), texts(none.json().get("mentions")));
        long rev = none.json().get("rev").asLong();
        Http.Response changed = http.bearer("PATCH", path, alice,
                Map.of("parts", List.of(parts), "mentions", List.of("alice")));
        assertEquals(200, changed.status());
        assertEquals(List.of("alice"), texts(changed.json().get("mentions")));
        assertEquals(rev + 1, changed.json().get("rev").asLong(), "a change of mentions alone is a change");
        assertBadRequest(http.bearer("PATCH", path, alice,
                Map.of("parts", List.of(parts), "mentions", List.of("carol"))), "mentions");
        assertEquals(List.of(), texts(http.bearer("PATCH", path, alice,
                Map.of("parts", List.of(parts), "mentions", List.of())).json().get("mentions")));
    }

    @Test
    void eachReplyBumpsItsRootAfterItAndTheSummaryCountsTheRemainingReplies() throws Exception {
        String root = id(alice);
        try (SocketClient watcher = SocketClient.connectToken(server, bob)) {
            watcher.send("420[\"join-room\",{\"roomId\":\"" + roomId + "\"}]");
            String frame = watcher.next();
            while (!frame.startsWith("430[")) { // presence may come first
                frame = watcher.next();
            }
            assertTrue(frame.contains("\"ok\":true"), frame);
            clock.advance(Duration.ofSeconds(1));
            JsonNode first = sent(bob, Map.of("threadId", root));
            assertEquals(root, first.get("threadId").asText());
            clock.advance(Duration.ofSeconds(1));
            JsonNode second = sent(alice, Map.of("threadId", root));

            JsonNode event = messageEvent(watcher);
            assertEquals("new-message", event.get(0).asText());
            assertEquals(first.get("id").asText(), event.get(1).get("id").asText());
            event = messageEvent(watcher);
            assertEquals("message-updated", event.get(0).asText());
            assertEquals(root, event.get(1).get("id").asText());
            assertEquals(first.get("rev").asLong() + 1, event.get(1).get("rev").asLong());
            assertEquals(1, event.get(1).at("/thread/replyCount").asInt());
            assertEquals("new-message", messageEvent(watcher).get(0).asText());
            event = messageEvent(watcher);
            assertEquals("message-updated", event.get(0).asText());
            assertEquals(second.get("rev").asLong() + 1, event.get(1).get("rev").asLong());
            assertEquals(2, event.get(1).at("/thread/replyCount").asInt());
        }
        JsonNode summary = get(bob, root).get("thread");
        assertEquals(2, summary.get("replyCount").asInt());
        assertEquals("2026-11-21T10:00:02.000Z", summary.get("lastReplyAt").asText());
        assertEquals(List.of("alice", "bob"), texts(summary.get("participantIds")));
    }

    @Test
    void aSocketSendCarriesTheFieldsAndIsCheckedAlike() {
        String root = id(alice);
        try (SocketClient client = SocketClient.connectToken(server, bob)) {
            String body = "{\"roomId\":\"" + roomId + "\",\"parts\":[{\"type\":\"text\",\"text\":\"x\"}],"
                    + "\"clientMessageId\":\"s1\",\"threadId\":\"" + root + "\",\"replyToId\":\"" + root
                    + "\",\"mentions\":[\"alice\",\"alice\"]}";
            JsonNode ack = ack(client, 1, body);
            assertTrue(ack.get("ok").asBoolean(), ack.toString());
            assertEquals(root, ack.at("/message/threadId").asText());
            assertEquals(root, ack.at("/message/replyToId").asText());
            assertEquals(List.of("alice"), texts(ack.at("/message/mentions")));
            JsonNode refused = ack(client, 2, body.replace("s1", "s2").replace("[\"alice\",\"alice\"]",
                    "[\"carol\"]"));
            assertFalse(refused.get("ok").asBoolean(), refused.toString());
            assertEquals("bad_request", refused.at("/error/code").asText(), refused.toString());
        }
        assertEquals(1, get(alice, root).at("/thread/replyCount").asInt());
    }

    /** Emits a send-message and returns its ack, skipping the events that come before it. */
    private static JsonNode ack(SocketClient client, int ackId, String body) {
        client.send("42" + ackId + "[\"send-message\"," + body + "]");
        String prefix = "43" + ackId + "[";
        String frame = client.next();
        while (!frame.startsWith(prefix)) {
            frame = client.next();
        }
        try {
            return Http.JSON.readTree(frame.substring(prefix.length() - 1)).get(0);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void editingAReplyLeavesItsRootAlone() {
        String root = id(alice);
        String reply = sent(bob, Map.of("threadId", root)).get("id").asText();
        JsonNode before = get(alice, root);
        Http.Response edit = http.bearer("PATCH", "/v1/chat/rooms/" + roomId + "/messages/" + reply, bob,
                Map.of("parts", List.of(Map.of("type", "text", "text", "edited"))));
        assertEquals(200, edit.status());
        assertEquals(before, get(alice, root));
        assertEquals(root, edit.json().get("threadId").asText());
        // a reaction to a reply neither
        http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages/" + reply + "/reactions", alice,
                Map.of("emoji", "👍"));
        assertEquals(before, get(alice, root));
    }

    @Test
    void getChangesRecoversTheRootsCountAfterAReplyIsDeleted() {
        String root = id(alice);
        String reply = sent(bob, Map.of("threadId", root)).get("id").asText();
        sent(alice, Map.of("threadId", root));
        long since = get(alice, root).get("rev").asLong();
        assertEquals(200, delete(bob, reply).status());
        JsonNode changes = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/changes?since=" + since, alice, null)
                .json();
        JsonNode messages = changes.get("messages");
        assertEquals(2, messages.size(), changes.toString());
        assertEquals(reply, messages.get(0).get("id").asText());
        assertFalse(messages.get(0).get("deletedAt").isNull());
        assertEquals(root, messages.get(1).get("id").asText());
        assertEquals(messages.get(0).get("rev").asLong() + 1, messages.get(1).get("rev").asLong());
        assertEquals(changes.get("rev").asLong(), messages.get(1).get("rev").asLong());
        assertEquals(1, messages.get(1).at("/thread/replyCount").asInt());
        assertEquals(List.of("alice"), texts(messages.get(1).at("/thread/participantIds")));
        // deleting it again changes nothing, the root included
        long rev = changes.get("rev").asLong();
        delete(bob, reply);
        assertEquals(rev, get(alice, root).get("rev").asLong());
    }

    @Test
    void withNoReplyLeftTheSummaryIsZeroAndEmpty() {
        String root = id(alice);
        String reply = sent(bob, Map.of("threadId", root)).get("id").asText();
        delete(bob, reply);
        JsonNode thread = get(alice, root).get("thread");
        assertEquals(0, thread.get("replyCount").asInt());
        assertTrue(thread.has("lastReplyAt") && thread.get("lastReplyAt").isNull(), thread.toString());
        assertEquals(0, thread.get("participantIds").size());
    }

    @Test
    void aDeletedRootKeepsItsRepliesAndSummaryAndTakesNoNewReply() {
        String root = id(alice);
        String reply = sent(bob, Map.of("threadId", root)).get("id").asText();
        assertEquals(200, delete(alice, root).status());
        JsonNode deleted = get(bob, root);
        assertFalse(deleted.get("deletedAt").isNull());
        assertEquals(1, deleted.at("/thread/replyCount").asInt());
        Http.Response refused = send(bob, roomId, Map.of("threadId", root));
        assertEquals(409, refused.status(), refused.raw().body());
        assertEquals("conflict", refused.json().at("/error/code").asText());
        JsonNode thread = history(bob, "?threadId=" + root).json();
        assertEquals(reply, thread.at("/messages/0/id").asText());
        assertEquals(1, thread.get("messages").size());
        assertEquals(1, get(bob, root).at("/thread/replyCount").asInt(), "a refused reply counts nowhere");
        // its replies may still be deleted, and the deleted root counts down
        delete(bob, reply);
        assertEquals(0, get(bob, root).at("/thread/replyCount").asInt());
    }

    @Test
    void participantsAreTheTenMostRecentDistinctSenders() {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            members.add("p" + i);
        }
        roomId = http.createRoom(server.apiKey(), members.toArray(new String[0]));
        List<String> tokens = new ArrayList<>();
        for (String member : members) {
            tokens.add(http.mint(server.apiKey(), member));
        }
        String root = id(tokens.get(0));
        for (int i = 0; i < 12; i++) {
            sent(tokens.get(i), Map.of("threadId", root));
        }
        sent(tokens.get(5), Map.of("threadId", root));
        JsonNode thread = get(tokens.get(0), root).get("thread");
        assertEquals(13, thread.get("replyCount").asInt());
        assertEquals(List.of("p5", "p11", "p10", "p9", "p8", "p7", "p6", "p4", "p3", "p2"),
                texts(thread.get("participantIds")));
    }

    @Test
    void oneMessageIsReadAsTheRoomRoutesAre() {
        String id = id(alice);
        assertEquals(id, get(bob, id).get("id").asText());
        String path = "/v1/chat/rooms/" + roomId + "/messages/";
        assertEquals(404, http.bearer("GET", path + UUID.randomUUID(), alice, null).status());
        assertEquals(404, http.bearer("GET", path + "nope", alice, null).status());
        Http.Response stranger = http.bearer("GET", path + id, carol, null);
        assertEquals(403, stranger.status());
        assertEquals("forbidden", stranger.json().at("/error/code").asText());
        String elsewhere = send(alice, otherRoomId, Map.of()).json().get("id").asText();
        assertEquals(404, http.bearer("GET", path + elsewhere, alice, null).status());
        assertEquals(404, http.bearer("GET", "/v1/chat/rooms/" + UUID.randomUUID() + "/messages/" + id, alice,
                null).status());
        assertEquals(401, http.bearer("GET", path + id, "not-a-token", null).status());
    }

    @Test
    void historyReadsOneThreadOrTheMainTimelineWithTheSamePaging() {
        String root = id(alice); // seq 1
        List<Long> replySeqs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            replySeqs.add(sent(bob, Map.of("threadId", root)).get("seq").asLong());
            id(alice);
        }
        // seqs: 1 root, 2 r, 3 m, 4 r, 5 m, 6 r, 7 m, 8 r, 9 m, 10 r, 11 m
        assertEquals(List.of(2L, 4L, 6L, 8L, 10L), replySeqs);
        String reply4 = history(alice, "?threadId=" + root).json().at("/messages/1/id").asText();
        delete(bob, reply4);

        JsonNode all = history(alice, "?threadId=" + root).json();
        assertEquals(replySeqs, seqs(all));
        assertFalse(all.get("hasMore").asBoolean());
        assertFalse(all.at("/messages/1/deletedAt").isMissingNode(), "a deleted reply stays as a tombstone");
        JsonNode latest = history(alice, "?threadId=" + root + "&limit=2").json();
        assertEquals(List.of(8L, 10L), seqs(latest));
        assertTrue(latest.get("hasMore").asBoolean());
        assertEquals(List.of(4L, 6L), seqs(history(alice, "?threadId=" + root + "&limit=2&before=8").json()));
        JsonNode forward = history(alice, "?threadId=" + root + "&limit=2&after=6").json();
        assertEquals(List.of(8L, 10L), seqs(forward));
        assertFalse(forward.get("hasMore").asBoolean());

        JsonNode main = history(alice, "?mainOnly=true").json();
        assertEquals(List.of(1L, 3L, 5L, 7L, 9L, 11L), seqs(main));
        assertEquals(List.of(7L, 9L), seqs(history(alice, "?mainOnly=true&limit=2&before=11").json()));
        JsonNode mainForward = history(alice, "?mainOnly=true&limit=3&after=3").json();
        assertEquals(List.of(5L, 7L, 9L), seqs(mainForward));
        assertTrue(mainForward.get("hasMore").asBoolean());
        assertEquals(11, history(alice, "?mainOnly=false").json().get("messages").size());
        assertEquals(11, history(alice, "?mainOnly=&threadId=").json().get("messages").size());

        assertBadRequest(history(alice, "?mainOnly=yes"), "mainOnly");
        assertBadRequest(history(alice, "?mainOnly=true&threadId=" + root), "threadId");
        assertBadRequest(history(alice, "?threadId=" + reply4), "threadId");
        assertBadRequest(history(alice, "?threadId=" + UUID.randomUUID()), "threadId");
        String elsewhere = send(alice, otherRoomId, Map.of()).json().get("id").asText();
        assertBadRequest(history(alice, "?threadId=" + elsewhere), "threadId");
        assertEquals(403, history(carol, "?threadId=" + root).status());
    }
}
