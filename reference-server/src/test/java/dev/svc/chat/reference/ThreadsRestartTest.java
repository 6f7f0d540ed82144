package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A server restarted on its data directory keeps replies, threads, mentions and the roots' summaries. */
class ThreadsRestartTest {

    private Path dir;

    @AfterEach
    void clean() {
        Backends.deleteTree(dir);
    }

    private static JsonNode send(Http http, String token, String roomId, String cid, Map<String, Object> extra) {
        Map<String, Object> body = new java.util.HashMap<>(extra);
        body.put("parts", List.of(Map.of("type", "text", "text", cid)));
        body.put("clientMessageId", cid);
        Http.Response r = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token, body);
        assertEquals(201, r.status(), r.raw().body());
        return r.json();
    }

    @Test
    void theFieldsAndTheSummaryComeBackAfterARestart() throws Exception {
        Files.createDirectories(Path.of("target"));
        dir = Files.createTempDirectory(Path.of("target"), "threads-restart-");
        String roomId;
        JsonNode root;
        JsonNode reply;
        JsonNode history;
        try (ReferenceServer server = ReferenceServer.builder().dataDir(dir).build().start()) {
            Http http = new Http(server);
            roomId = http.createRoom(server.apiKey(), "alice", "bob");
            String alice = http.mint(server.apiKey(), "alice");
            String bob = http.mint(server.apiKey(), "bob");
            String rootId = send(http, alice, roomId, "root", Map.of("mentions", List.of("bob"))).get("id").asText();
            reply = send(http, bob, roomId, "reply", Map.of("threadId", rootId, "replyToId", rootId,
                    "mentions", List.of("alice", "bob")));
            send(http, alice, roomId, "gone", Map.of("threadId", rootId));
            String gone = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages?threadId=" + rootId, alice,
                    null).json().at("/messages/1/id").asText();
            http.bearer("DELETE", "/v1/chat/rooms/" + roomId + "/messages/" + gone, alice, null);
            root = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages/" + rootId, bob, null).json();
            history = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages?threadId=" + rootId, bob, null)
                    .json();
        }
        assertEquals(1, root.at("/thread/replyCount").asInt());
        assertEquals("bob", root.at("/thread/participantIds/0").asText());
        try (ReferenceServer again = ReferenceServer.builder().dataDir(dir).build().start()) {
            Http http = new Http(again);
            String bob = http.mint(again.apiKey(), "bob");
            assertEquals(root, http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages/" + root.get("id").asText(),
                    bob, null).json());
            assertEquals(reply, http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages/"
                    + reply.get("id").asText(), bob, null).json());
            assertEquals(history, http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages?threadId="
                    + root.get("id").asText(), bob, null).json());
            // the summary goes on from what was stored
            String alice = http.mint(again.apiKey(), "alice");
            send(http, alice, roomId, "after", Map.of("threadId", root.get("id").asText()));
            JsonNode thread = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages/" + root.get("id").asText(),
                    bob, null).json().get("thread");
            assertEquals(2, thread.get("replyCount").asInt());
            assertEquals("alice", thread.at("/participantIds/0").asText());
        }
    }
}
