package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.reference.files.FileComponents;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The life of uploads on the backend of the run: expiry on the server's clock (24 h after the last PATCH, or
 * after completion for a file no message references) and the sweep on its timer, the memory backend's budget,
 * and a client that stops sending in the middle of a PATCH (bounded by the PATCH idle timeout, resumable after).
 */
class FileLifecycleTest {

    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");

    private final MutableClock clock = new MutableClock(START);
    private ReferenceServer server;
    private Http http;
    private TusClient tus;
    private String room;
    private String alice;
    private String bob;

    @BeforeAll
    static void fastTimers() {
        System.setProperty(FileComponents.SWEEP_PROPERTY, "50");
        System.setProperty(FileComponents.PATCH_IDLE_PROPERTY, "500");
    }

    @AfterAll
    static void defaultTimers() {
        System.clearProperty(FileComponents.SWEEP_PROPERTY);
        System.clearProperty(FileComponents.PATCH_IDLE_PROPERTY);
    }

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).build().start();
        http = new Http(server);
        tus = new TusClient(server.port());
        room = http.createRoom(server.apiKey(), "alice", "bob");
        // Tokens live an hour of the server's clock: minted again after the clock jumps a day.
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void advanceHours(long hours) {
        clock.advance(Duration.ofHours(hours));
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
    }

    @Test
    void anUnfinishedUploadExpiresADayAfterItsLastPatch() throws InterruptedException {
        String id = tus.createOk(alice, 100, "a.bin", null);
        String expires = tus.send("HEAD", "/v1/uploads/" + id, TusClient.tus(alice), null).header("Upload-Expires");
        assertEquals(DateTimeFormatter.RFC_1123_DATE_TIME.format(START.plus(Duration.ofHours(24)).atOffset(
                ZoneOffset.UTC)), expires);
        advanceHours(20);
        TusClient.Answer patch = tus.patch(alice, id, 0, new byte[10], null);
        assertEquals(204, patch.status());
        assertEquals(DateTimeFormatter.RFC_1123_DATE_TIME.format(START.plus(Duration.ofHours(44)).atOffset(
                ZoneOffset.UTC)), patch.header("Upload-Expires"), "each PATCH moves the expiry");
        advanceHours(20);
        assertEquals(10, tus.offset(alice, id), "40 h after creation, 20 h after the last PATCH: alive");
        advanceHours(5);
        assertEquals(-404, tus.offset(alice, id), "expired");
        assertEquals(404, tus.patch(alice, id, 10, new byte[10], null).status());
        Conditions.until("the sweep deletes the expired upload's bytes", () -> !onDisk(id));
    }

    @Test
    void theSweepDeletesUnreferencedFilesADayAfterCompletionAndKeepsReferencedOnes() throws InterruptedException {
        String kept = tus.upload(alice, new byte[] {1, 2, 3}, "kept.bin", null);
        String orphan = tus.upload(alice, new byte[] {4, 5, 6}, "orphan.bin", null);
        assertEquals(201, http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice, Map.of(
                "clientMessageId", "c1", "parts", List.of(Map.of("type", "file", "fileId", kept)))).status());
        advanceHours(23);
        assertEquals(200, tus.get(alice, "/v1/files/" + orphan, Map.of()).status(), "a day not yet over");
        advanceHours(2);
        // the record goes first (no reader finds a file whose bytes are going), then the bytes
        Conditions.until("the sweep deletes the unreferenced file and its bytes",
                () -> tus.get(alice, "/v1/files/" + orphan, Map.of()).status() == 404 && !onDisk(orphan));
        assertEquals(200, tus.get(bob, "/v1/files/" + kept, Map.of()).status(), "a referenced file stays");
        assertTrue(onDisk(kept) || !server.storage().startsWith("sqlite:"));
    }

    @Test
    void theMemoryBudgetRefusesANewUploadPastItAndNamesIt() {
        Assumptions.assumeTrue("memory".equals(Backends.current()), "the memory backend's budget");
        long hundredMiB = 100L * 1024 * 1024;
        String first = tus.createOk(alice, hundredMiB, "a.bin", null);
        tus.createOk(bob, hundredMiB, "b.bin", null);
        TusClient.Answer third = tus.create(alice, Long.toString(hundredMiB), "c.bin", null);
        assertEquals(413, third.status(), third.toString());
        assertEquals("payload_too_large", third.errorCode());
        assertTrue(third.json().path("error").path("message").asText().contains("268435456 bytes"), third.toString());
        assertEquals(204, tus.send("DELETE", "/v1/uploads/" + first, TusClient.tus(alice), null).status());
        assertEquals(201, tus.create(alice, Long.toString(hundredMiB), "c.bin", null).status(), "room again");
    }

    @Test
    void aClientThatStopsMidPatchIsCutAfterTheIdleTimeoutAndTheUploadResumes()
            throws IOException, InterruptedException {
        byte[] bytes = FilesTest.random(1000, 9);
        String id = tus.createOk(alice, bytes.length, "slow.bin", null);
        long stalledAt;
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("PATCH /v1/uploads/" + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + alice
                    + "\r\nTus-Resumable: 1.0.0\r\nContent-Type: application/offset+octet-stream\r\n"
                    + "Upload-Offset: 0\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 300; i += 3) { // dribbled a few bytes a write, then nothing more
                out.write(bytes, i, 3);
                out.flush();
            }
            stalledAt = System.nanoTime();
            Conditions.until("the stalled PATCH is cut and its bytes kept", () -> tus.offset(alice, id) == 300);
        }
        long millis = (System.nanoTime() - stalledAt) / 1_000_000;
        assertTrue(millis < 15_000, "bounded by the 500 ms idle timeout (and the load): " + millis + " ms");
        TusClient.Answer rest = tus.patch(alice, id, 300, Arrays.copyOfRange(bytes, 300, bytes.length), null);
        assertEquals(204, rest.status(), rest.toString());
        assertEquals(TusClient.hex(bytes), TusClient.hex(tus.get(alice, "/v1/files/" + id, Map.of()).body()));
    }

    /** Returns whether the upload has files on disk; false on the backends without a data directory. */
    private boolean onDisk(String id) {
        if (!server.storage().startsWith("sqlite:")) {
            return false;
        }
        Path dir = Path.of(server.storage().substring("sqlite:".length())).resolve("files");
        return Files.exists(dir.resolve(id + ".bin")) || Files.exists(dir.resolve(id + ".json"));
    }
}
