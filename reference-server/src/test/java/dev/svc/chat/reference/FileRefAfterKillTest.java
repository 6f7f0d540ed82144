package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A message that references a file is stored first, and the file's record learns of the message after: a
 * {@code kill -9} between the two leaves a stored message whose room's members cannot read its file. The sender
 * got no answer, so it sends again with the same {@code clientMessageId}; that repeat records the reference.
 */
class FileRefAfterKillTest {

    private static final String KEY = "sk_test_file_ref_after_kill_0123";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    @Test
    void theSendersRepeatRecordsTheReferenceAKillLeftUnwritten() throws Exception {
        byte[] bytes = FilesTest.random(5000, 3);
        Map<String, Object> send;
        String room;
        String fileId;
        try (ReferenceServer server = ReferenceServer.builder().apiKey(KEY).dataDir(dir).build().start()) {
            Http http = new Http(server);
            room = http.createRoom(KEY, "alice", "bob");
            String alice = http.mint(KEY, "alice");
            fileId = new TusClient(server.port()).upload(alice, bytes, "a.bin", null);
            send = Map.of("clientMessageId", "c1", "parts", List.of(Map.of("type", "file", "fileId", fileId)));
            assertEquals(201, http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice, send).status());
        }
        // what the kill leaves: the message stored, the file's record as it was before the message
        Path record = dir.resolve("files").resolve(fileId + ".json");
        ObjectNode node = (ObjectNode) JSON.readTree(record.toFile());
        node.putArray("refs");
        JSON.writeValue(record.toFile(), node);

        try (ReferenceServer server = ReferenceServer.builder().apiKey(KEY).dataDir(dir).build().start()) {
            Http http = new Http(server);
            TusClient tus = new TusClient(server.port());
            String alice = http.mint(KEY, "alice");
            String bob = http.mint(KEY, "bob");
            assertEquals(404, tus.get(bob, "/v1/files/" + fileId, Map.of()).status(), "the state a kill leaves");

            Http.Response again = http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice, send);
            assertEquals(1, http.bearer("GET", "/v1/chat/rooms/" + room + "/messages", bob, null).json()
                    .get("messages").size(), "stored once: " + again.json());
            TusClient.Answer read = tus.get(bob, "/v1/files/" + fileId, Map.of());
            assertEquals(200, read.status(), "a member of the room reads the file after the sender's repeat");
            assertArrayEquals(bytes, read.body());
        }
    }
}
