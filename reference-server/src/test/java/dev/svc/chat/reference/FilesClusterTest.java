package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Files on a cluster (the PostgreSQL run only): an upload begun on one node is resumed on the other from the
 * offset it reports, a PATCH racing on both nodes at the same offset is taken once, and both nodes serve the
 * file and its thumbnail.
 */
class FilesClusterTest {

    private static final String KEY = "sk_test_files_cluster_0123456789";

    private static ReferenceServer node(EmbeddedPg pg, String schema) {
        return ReferenceServer.builder().apiKey(KEY).databaseUrl(pg.jdbcUrl(), pg.user(), null)
                .databaseSchema(schema).build().start();
    }

    @Test
    void anUploadBegunOnOneNodeIsFinishedOnTheOtherAndServedByBoth() {
        assumeTrue("postgres".equals(Backends.current()), "needs the PostgreSQL backend");
        EmbeddedPg pg = EmbeddedPg.shared();
        String schema = "files_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        try (ReferenceServer a = node(pg, schema); ReferenceServer b = node(pg, schema)) {
            Http http = new Http(a);
            String room = http.createRoom(KEY, "alice", "bob");
            String alice = http.mint(KEY, "alice");
            String bob = http.mint(KEY, "bob");
            TusClient tusA = new TusClient(a.port());
            TusClient tusB = new TusClient(b.port());
            byte[] image = FilesTest.png(600, 300, false);
            int half = image.length / 2;
            String id = tusA.createOk(alice, image.length, "wide.png", "image/png");
            assertEquals(204, tusA.patch(alice, id, 0, Arrays.copyOf(image, half), null).status());
            assertEquals(half, tusB.offset(alice, id), "the other node sees the offset");
            byte[] rest = Arrays.copyOfRange(image, half, image.length);
            assertEquals(204, tusB.patch(alice, id, half, rest, TusClient.checksum(rest)).status());
            assertEquals(409, tusA.patch(alice, id, half, rest, null).status(), "the same PATCH again: offset moved");

            Http.Response sent = new Http(b).bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice, Map.of(
                    "clientMessageId", "c1", "parts", List.of(Map.of("type", "file", "fileId", id))));
            assertEquals(201, sent.status(), sent.json().toString());
            assertEquals(600, sent.json().get("parts").get(0).get("width").asInt());
            assertArrayEquals(image, tusA.get(bob, "/v1/files/" + id, Map.of()).body());
            assertArrayEquals(image, tusB.get(bob, "/v1/files/" + id, Map.of()).body());
            byte[] thumbA = tusA.get(bob, "/v1/files/" + id + "/thumbnail?size=64", Map.of()).body();
            assertArrayEquals(thumbA, tusB.get(bob, "/v1/files/" + id + "/thumbnail?size=64", Map.of()).body(),
                    "made once, kept in the database");
        }
    }
}
