package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uploads on {@code --data-dir} through a {@code kill -9}: every answered PATCH survives, the bytes of the PATCH
 * the kill left unanswered are dropped (the record's offset is the truth), HEAD tells where to resume, and the
 * finished file downloads with the sender's SHA-256. The files are owner-only.
 */
class FilesRestartTest {

    private static final String KEY = "sk_test_files_restart_0123456789";

    @TempDir
    Path dir;

    private long binSize(String id) {
        try {
            Path bin = dir.resolve("files").resolve(id + ".bin");
            return Files.exists(bin) ? Files.size(bin) : -1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void anUploadHalfDoneBeforeAKillResumesFromItsOffsetAfterTheRestart() throws Exception {
        byte[] bytes = FilesTest.random(2_000_000, 11);
        int half = 1_000_000;
        String id;
        String alice;
        String room;
        try (ServerProcess first = ServerProcess.start(KEY, "--data-dir", dir.toString())) {
            Http http = new Http(first.port());
            TusClient tus = new TusClient(first.port());
            room = http.createRoom(KEY, "alice", "bob");
            alice = http.mint(KEY, "alice");
            id = tus.createOk(alice, bytes.length, "big.bin", "application/zip");
            byte[] answered = Arrays.copyOf(bytes, half);
            assertEquals(204, tus.patch(alice, id, 0, answered, TusClient.checksum(answered)).status());
            // A second PATCH sends 300 KB more and is never finished: killed while the server reads it.
            try (Socket socket = new Socket("127.0.0.1", first.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("PATCH /v1/uploads/" + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                        + alice + "\r\nTus-Resumable: 1.0.0\r\nContent-Type: application/offset+octet-stream\r\n"
                        + "Upload-Offset: " + half + "\r\nContent-Length: " + (bytes.length - half) + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(bytes, half, 300_000);
                out.flush();
                Conditions.until("the unanswered PATCH's bytes reach the file", () -> binSize(id) > half);
                first.kill();
            }
        }
        assertTrue(binSize(id) > half, "unanswered bytes were on disk at the kill: " + binSize(id));
        try (ServerProcess second = ServerProcess.start(KEY, "--data-dir", dir.toString())) {
            TusClient tus = new TusClient(second.port());
            Http http = new Http(second.port());
            alice = http.mint(KEY, "alice");
            assertEquals(half, tus.offset(alice, id), "HEAD: what was answered, not what was half-received");
            assertEquals(half, binSize(id), "the unanswered bytes were cut at the start");
            byte[] rest = Arrays.copyOfRange(bytes, half, bytes.length);
            assertEquals(204, tus.patch(alice, id, half, rest, TusClient.checksum(rest)).status());
            Http.Response sent = http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice, Map.of(
                    "clientMessageId", "c1", "parts", List.of(Map.of("type", "file", "fileId", id))));
            assertEquals(TusClient.hex(bytes), sent.json().get("parts").get(0).get("sha256").asText());
            String bob = http.mint(KEY, "bob");
            TusClient.Answer download = tus.get(bob, "/v1/files/" + id, Map.of());
            assertEquals(TusClient.hex(bytes), TusClient.hex(download.body()));
        }
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("files"))));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    dir.resolve("files").resolve(id + ".bin"))));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    dir.resolve("files").resolve(id + ".json"))));
        }
    }

    @Test
    void aLongPatchWithoutChecksumIsDurableStepByStepWhileItStreams() throws Exception {
        int step = 1024 * 1024;
        byte[] bytes = FilesTest.random(4 * step, 12);
        int arrived = 5 * step / 2;
        String id;
        try (ServerProcess first = ServerProcess.start(KEY, "--data-dir", dir.toString())) {
            TusClient tus = new TusClient(first.port());
            String alice = new Http(first.port()).mint(KEY, "alice");
            id = tus.createOk(alice, bytes.length, "long.bin", null);
            // The whole file in one PATCH without Upload-Checksum, as the SDK streams it; killed after 2.5 MiB.
            try (Socket socket = new Socket("127.0.0.1", first.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("PATCH /v1/uploads/" + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                        + alice + "\r\nTus-Resumable: 1.0.0\r\nContent-Type: application/offset+octet-stream\r\n"
                        + "Upload-Offset: 0\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(bytes, 0, arrived);
                out.flush();
                Conditions.until("HEAD tells the steps committed while the PATCH runs",
                        () -> tus.offset(alice, id) == 2L * step);
                Conditions.until("the bytes of the step in progress reach the file", () -> binSize(id) == arrived);
                first.kill();
            }
        }
        try (ServerProcess second = ServerProcess.start(KEY, "--data-dir", dir.toString())) {
            TusClient tus = new TusClient(second.port());
            String alice = new Http(second.port()).mint(KEY, "alice");
            assertEquals(2L * step, tus.offset(alice, id), "HEAD after the kill: every whole step survived");
            byte[] rest = Arrays.copyOfRange(bytes, 2 * step, bytes.length);
            assertEquals(204, tus.patch(alice, id, 2L * step, rest, null).status());
            assertEquals(TusClient.hex(bytes), TusClient.hex(tus.get(alice, "/v1/files/" + id, Map.of()).body()));
        }
    }
}
