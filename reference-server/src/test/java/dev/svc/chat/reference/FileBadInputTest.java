package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input to uploads and file parts (contract section 9), on the backend of the run: each is refused with the
 * contract's error body and stores nothing (no upload is created; a refused PATCH leaves the offset, and on
 * {@code --data-dir} the file's bytes, as they were).
 */
class FileBadInputTest {

    private ReferenceServer server;
    private Http http;
    private TusClient tus;
    private String room;
    private String alice;
    private String bob;

    @BeforeEach
    void start() {
        server = Backends.builder().build().start();
        http = new Http(server);
        tus = new TusClient(server.port());
        room = http.createRoom(server.apiKey(), "alice", "bob");
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Returns the number of files in the data directory's files/ (0 on the other backends: nothing to look at). */
    private long filesOnDisk() {
        if (!server.storage().startsWith("sqlite:")) {
            return 0;
        }
        try (Stream<Path> list = Files.list(Path.of(server.storage().substring("sqlite:".length())).resolve("files"))) {
            return list.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns the size of an upload's bytes on disk, or -1 on the other backends. */
    private long bytesOnDisk(String id) {
        if (!server.storage().startsWith("sqlite:")) {
            return -1;
        }
        try {
            return Files.size(Path.of(server.storage().substring("sqlite:".length())).resolve("files").resolve(id + ".bin"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void refusedCreate(int status, String code, String length, String metadata) {
        long before = filesOnDisk();
        Map<String, String> headers = TusClient.tus(alice);
        headers.put("Upload-Length", length);
        headers.put("Upload-Metadata", metadata);
        TusClient.Answer a = tus.send("POST", "/v1/uploads", headers, null);
        assertEquals(status, a.status(), length + " " + metadata + ": " + a);
        assertEquals(code, a.errorCode(), a.toString());
        assertTrue(a.json().path("error").path("message").isTextual());
        assertNull(a.header("Location"));
        assertEquals(before, filesOnDisk(), "nothing stored");
    }

    @Test
    void filenamesWithPathsOrControlCharactersAreRefused() {
        for (String name : List.of("../../etc/passwd", "a/b.txt", "..\\..\\boot.ini", "a\u0000b", "line\nbreak.txt",
                "bell\u0007", "del\u007f", "x".repeat(256))) {
            refusedCreate(400, "bad_request", "10", TusClient.metadata(name, "text/plain"));
        }
        refusedCreate(400, "bad_request", "10", TusClient.metadata(null, "text/plain"));
        refusedCreate(400, "bad_request", "10", "filename !!!notbase64");
        refusedCreate(400, "bad_request", "10", "filename " + TusClient.b64(new byte[] {(byte) 0xc3, 0x28}));
        refusedCreate(400, "bad_request", "10", TusClient.metadata("a.txt", "text/plain\r\nSet-Cookie: x=1"));
        assertEquals(201, tus.create(alice, "10", "ü " + "x".repeat(253), "text/plain").status(), "255 is fine");
    }

    @Test
    void absurdOrMissingLengthsAreRefused() {
        String meta = TusClient.metadata("a.bin", null);
        refusedCreate(413, "payload_too_large", Long.toString(10L * 1000 * 1000 * 1000), meta);
        refusedCreate(413, "payload_too_large", "104857601", meta);
        refusedCreate(400, "bad_request", "-1", meta);
        refusedCreate(400, "bad_request", "ten", meta);
        refusedCreate(400, "bad_request", "1e9", meta);
        refusedCreate(400, "bad_request", "99999999999999999999999", meta);
        refusedCreate(400, "bad_request", null, meta);
        Map<String, String> deferred = TusClient.tus(alice);
        deferred.put("Upload-Defer-Length", "1");
        deferred.put("Upload-Metadata", meta);
        assertEquals(400, tus.send("POST", "/v1/uploads", deferred, null).status(), "deferred length unsupported");
    }

    @Test
    void aMissingOrWrongTusResumableIs412() {
        String id = tus.createOk(alice, 10, "a.bin", null);
        for (String version : new String[] {null, "0.2.2", "1.0"}) {
            Map<String, String> headers = new java.util.LinkedHashMap<>();
            headers.put("Authorization", "Bearer " + alice);
            headers.put("Tus-Resumable", version);
            headers.put("Upload-Length", "10");
            headers.put("Upload-Metadata", TusClient.metadata("b.bin", null));
            TusClient.Answer create = tus.send("POST", "/v1/uploads", headers, null);
            assertEquals(412, create.status(), version + ": " + create);
            assertEquals("precondition_failed", create.errorCode());
            assertEquals("1.0.0", create.header("Tus-Resumable"));
            headers.put("Content-Type", "application/offset+octet-stream");
            headers.put("Upload-Offset", "0");
            assertEquals(412, tus.send("PATCH", "/v1/uploads/" + id, headers, new byte[10]).status());
            assertEquals(412, tus.send("HEAD", "/v1/uploads/" + id, headers, null).status());
        }
        assertEquals(0, tus.offset(alice, id), "nothing stored");
        Map<String, String> noToken = TusClient.tus(alice);
        noToken.remove("Authorization");
        noToken.remove("Tus-Resumable");
        assertEquals(401, tus.send("POST", "/v1/uploads", noToken, null).status(), "401 comes first");
    }

    @Test
    void aChecksumMismatchIs460AndDropsThatRequestsBytes() {
        byte[] bytes = FilesTest.random(200_000, 5);
        String id = tus.createOk(alice, bytes.length, "a.bin", null);
        byte[] first = Arrays.copyOf(bytes, 70_000);
        assertEquals(204, tus.patch(alice, id, 0, first, TusClient.checksum(first)).status());
        byte[] second = Arrays.copyOfRange(bytes, 70_000, 140_000);
        TusClient.Answer mismatch = tus.patch(alice, id, 70_000, second, TusClient.checksum(first));
        assertEquals(460, mismatch.status(), mismatch.toString());
        assertEquals("checksum_mismatch", mismatch.errorCode());
        assertEquals(70_000, tus.offset(alice, id));
        long disk = bytesOnDisk(id);
        assertTrue(disk == -1 || disk == 70_000, "the bytes on disk: " + disk);
        assertEquals(400, tus.patch(alice, id, 70_000, second, "md5 " + TusClient.b64(new byte[16])).status());
        assertEquals(400, tus.patch(alice, id, 70_000, second, "sha256 %%%").status());
        assertEquals(70_000, tus.offset(alice, id));
        assertEquals(204, tus.patch(alice, id, 70_000, Arrays.copyOfRange(bytes, 70_000, bytes.length),
                TusClient.checksum(Arrays.copyOfRange(bytes, 70_000, bytes.length))).status());
        TusClient.Answer got = tus.get(alice, "/v1/files/" + id, Map.of());
        assertEquals(TusClient.hex(bytes), TusClient.hex(got.body()));
        assertEquals("\"" + TusClient.hex(bytes) + "\"", got.header("ETag"), "the sha256 left out the dropped bytes");
    }

    @Test
    void aWrongOffsetIs409AndAPatchPastTheLengthIs413() {
        String id = tus.createOk(alice, 100, "a.bin", null);
        assertEquals(204, tus.patch(alice, id, 0, new byte[40], null).status());
        TusClient.Answer wrong = tus.patch(alice, id, 30, new byte[10], null);
        assertEquals(409, wrong.status());
        assertEquals("conflict", wrong.errorCode());
        assertEquals(409, tus.patch(alice, id, 50, new byte[10], null).status());
        TusClient.Answer past = tus.patch(alice, id, 40, new byte[61], null);
        assertEquals(413, past.status(), past.toString());
        assertEquals("payload_too_large", past.errorCode());
        Map<String, String> headers = TusClient.tus(alice);
        headers.put("Content-Type", "application/offset+octet-stream");
        headers.put("Upload-Offset", "40");
        TusClient.Answer chunked = tus.sendChunked("PATCH", "/v1/uploads/" + id, headers, new byte[61]);
        assertEquals(413, chunked.status(), "a body without Content-Length past the length: " + chunked);
        assertEquals(40, tus.offset(alice, id), "nothing of either stored");
        long disk = bytesOnDisk(id);
        assertTrue(disk == -1 || disk == 40, "the bytes on disk: " + disk);
        headers.put("Content-Type", "application/octet-stream");
        TusClient.Answer type = tus.send("PATCH", "/v1/uploads/" + id, headers, new byte[1]);
        assertEquals(415, type.status());
        assertEquals("unsupported_media_type", type.errorCode());
        headers.put("Content-Type", "application/offset+octet-stream");
        headers.put("Upload-Offset", "-1");
        assertEquals(400, tus.send("PATCH", "/v1/uploads/" + id, headers, new byte[1]).status());
        assertEquals(404, tus.patch(bob, id, 40, new byte[1], null).status(), "another user's upload");
        assertEquals(404, tus.patch(alice, "not-a-uuid", 0, new byte[1], null).status());
        assertEquals(204, tus.patch(alice, id, 40, new byte[60], null).status());
        assertEquals(409, tus.patch(alice, id, 100, new byte[1], null).status(), "complete: no more bytes");
        assertEquals("\"" + TusClient.hex(new byte[100]) + "\"", tus.get(alice, "/v1/files/" + id, Map.of())
                .header("ETag"), "the sha256 of the kept bytes only");
    }

    @Test
    void aFilePartMustNameTheSendersOwnCompleteFile() {
        String other = http.mint(server.createTenant().apiKey(), "alice");
        String foreign = new TusClient(server.port()).upload(other, new byte[] {1, 2, 3}, "f.bin", null);
        String bobs = tus.upload(bob, new byte[] {4, 5}, "b.bin", null);
        String unfinished = tus.createOk(alice, 10, "u.bin", null);
        for (String id : List.of(foreign, bobs, unfinished, "00000000-0000-0000-0000-000000000000", "../x")) {
            Http.Response r = http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice, Map.of(
                    "clientMessageId", "c-" + id, "parts", List.of(Map.of("type", "text", "text", "hi"),
                            Map.of("type", "file", "fileId", id))));
            assertEquals(400, r.status(), id + ": " + r.json());
            assertEquals("bad_request", r.errorCode());
            assertTrue(r.errorMessage().startsWith("part 1:"), r.errorMessage());
        }
        Http.Response noId = http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice, Map.of(
                "clientMessageId", "c-none", "parts", List.of(Map.of("type", "file", "fileId", 7))));
        assertEquals(400, noId.status());
        assertEquals(0, http.bearer("GET", "/v1/chat/rooms/" + room + "/messages", alice, null).json()
                .get("messages").size(), "nothing sent");
        assertEquals(404, tus.get(alice, "/v1/files/" + foreign, Map.of()).status(), "another tenant's file");
        assertEquals(404, tus.get(alice, "/v1/files/" + bobs, Map.of()).status(), "another user's unsent file");
    }
}
