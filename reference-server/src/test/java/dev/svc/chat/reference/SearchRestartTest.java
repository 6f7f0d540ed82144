package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search index of {@code --data-dir} (Lucene beside the SQLite file) after a {@code kill -9}, and when it is
 * missing or corrupt: at start it is caught up or rebuilt from the messages, so that every acknowledged
 * message is found in its current state.
 */
class SearchRestartTest {

    private static final String KEY = "sk_test_search_restart_0123456789";

    @TempDir
    Path dir;

    private static String q(String text) {
        return "/v1/search/messages?limit=50&q=" + URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static List<String> texts(Http http, String token, String query) {
        Http.Response r = http.bearer("GET", q(query), token, null);
        assertEquals(200, r.status(), r.json().toString());
        List<String> out = new ArrayList<>();
        for (JsonNode result : r.json().get("results")) {
            out.add(result.get("message").get("parts").get(0).get("text").asText());
        }
        return out;
    }

    @Test
    void killNineLosesNoAcknowledgedMessageFromTheIndex() {
        String alice;
        String room;
        int sent = 40;
        // The index commits once, at start, and never again before the kill: everything since is caught up.
        try (ServerProcess first = ServerProcess.start(List.of("-D" + ServerComponents.SEARCH_COMMIT_PROPERTY
                + "=3600000"), Map.of("SVC_API_KEY", KEY), "--data-dir", dir.toString(),
                "--send-rate", "100000", "--send-burst", "100000")) {
            Http http = new Http(first.port());
            room = http.createRoom(KEY, "alice", "bob");
            alice = http.mint(KEY, "alice");
            String edited = http.sendText(alice, room, "edit", "before the edit").json().get("id").asText();
            String deleted = http.sendText(alice, room, "delete", "doomed words").json().get("id").asText();
            for (int i = 0; i < sent; i++) {
                assertEquals(201, http.sendText(alice, room, "m" + i, "durable message " + i).status());
            }
            assertEquals(200, http.bearer("PATCH", "/v1/chat/rooms/" + room + "/messages/" + edited, alice,
                    Map.of("parts", List.of(Map.of("type", "text", "text", "after the edit")))).status());
            assertEquals(200, http.bearer("DELETE", "/v1/chat/rooms/" + room + "/messages/" + deleted, alice, null)
                    .status());
            assertEquals(sent, texts(http, alice, "durable").size());
            first.kill();
        }
        try (ServerProcess second = ServerProcess.start(KEY, "--data-dir", dir.toString())) {
            Http http = new Http(second.port());
            assertEquals(sent, texts(http, alice, "durable").size(), "every acknowledged message found");
            assertEquals(List.of("after the edit"), texts(http, alice, "edit"));
            assertEquals(List.of(), texts(http, alice, "before"));
            assertEquals(List.of(), texts(http, alice, "doomed"));
            assertEquals(201, http.sendText(alice, room, "later", "durable later").status());
            assertEquals(sent + 1, texts(http, alice, "durable").size());
        }
    }

    @Test
    void aCorruptOrMissingIndexIsRebuiltFromTheMessages() throws IOException {
        String alice;
        try (ReferenceServer server = ReferenceServer.builder().apiKey(KEY).dataDir(dir).build().start()) {
            Http http = new Http(server);
            String room = http.createRoom(KEY, "alice");
            alice = http.mint(KEY, "alice");
            for (int i = 0; i < 5; i++) {
                assertEquals(201, http.sendText(alice, room, "m" + i, "rebuilt text " + i).status());
            }
        }
        Path index = dir.resolve("search-index");
        List<Path> files;
        try (Stream<Path> list = Files.list(index)) {
            files = list.filter(Files::isRegularFile).toList();
        }
        assertTrue(files.stream().anyMatch(f -> f.getFileName().toString().startsWith("segments")), files.toString());
        for (Path file : files) {
            Files.write(file, "not a lucene file".getBytes(StandardCharsets.UTF_8));
        }
        try (ReferenceServer server = ReferenceServer.builder().apiKey(KEY).dataDir(dir).build().start()) {
            assertEquals(5, texts(new Http(server), alice, "rebuilt").size(), "found after the index was corrupt");
        }
        Backends.deleteTree(index);
        try (ReferenceServer server = ReferenceServer.builder().apiKey(KEY).dataDir(dir).build().start()) {
            assertEquals(5, texts(new Http(server), alice, "rebuilt").size(), "found after the index was deleted");
        }
    }
}
