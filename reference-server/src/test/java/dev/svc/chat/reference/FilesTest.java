package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Files and images of contract section 9 on the backend of the run ({@link Backends}): tus uploads, the {@code
 * file} part the server fills in, downloads with ranges and safe headers, thumbnails, and who may read a file.
 */
class FilesTest {

    private ReferenceServer server;
    private Http http;
    private TusClient tus;
    private String room;
    private String alice;
    private String bob;
    private String carol;
    private int sent;

    @BeforeEach
    void start() {
        server = Backends.builder().sendRateLimit(1000, 1000).build().start();
        http = new Http(server);
        tus = new TusClient(server.port());
        room = http.createRoom(server.apiKey(), "alice", "bob");
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
        carol = http.mint(server.apiKey(), "carol");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static byte[] random(int n, long seed) {
        byte[] bytes = new byte[n];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static byte[] png(int width, int height, boolean alpha) {
        BufferedImage image = new BufferedImage(width, height, alpha ? BufferedImage.TYPE_INT_ARGB
                : BufferedImage.TYPE_INT_RGB);
        var g = image.createGraphics();
        g.setColor(alpha ? new Color(255, 0, 0, 128) : Color.BLUE);
        g.fillRect(0, 0, width / 2, height / 2);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private Http.Response sendFile(String token, String fileId, String caption) {
        List<Object> parts = caption == null ? List.of(Map.of("type", "file", "fileId", fileId))
                : List.of(Map.of("type", "text", "text", caption), Map.of("type", "file", "fileId", fileId));
        return http.bearer("POST", "/v1/chat/rooms/" + room + "/messages", token,
                Map.of("clientMessageId", "c-" + ++sent, "parts", parts));
    }

    @Test
    void optionsAnnouncesTheProtocolAndTheTenantsLimit() {
        TusClient.Answer a = tus.send("OPTIONS", "/v1/uploads", Map.of("Authorization", "Bearer " + alice), null);
        assertEquals(204, a.status(), a.toString());
        assertEquals("1.0.0", a.header("Tus-Version"));
        assertEquals("creation,expiration,checksum,termination", a.header("Tus-Extension"));
        assertEquals("104857600", a.header("Tus-Max-Size"));
        assertEquals("sha256", a.header("Tus-Checksum-Algorithm"));
        assertEquals(401, tus.send("OPTIONS", "/v1/uploads", Map.of(), null).status());

        Http.Response set = http.apiKey("PATCH", "/v1/tenant/settings", server.apiKey(), Map.of("maxFileBytes", 1000));
        assertEquals(1000, set.json().get("maxFileBytes").asLong(), set.json().toString());
        a = tus.send("OPTIONS", "/v1/uploads", Map.of("Authorization", "Bearer " + alice), null);
        assertEquals("1000", a.header("Tus-Max-Size"));
        TusClient.Answer over = tus.create(alice, "1001", "a.bin", null);
        assertEquals(413, over.status(), over.toString());
        assertEquals("payload_too_large", over.errorCode());
        assertTrue(over.json().path("error").path("message").asText().contains("maxFileBytes"), over.toString());
        assertEquals(201, tus.create(alice, "1000", "a.bin", null).status());
        assertEquals(400, http.apiKey("PATCH", "/v1/tenant/settings", server.apiKey(), Map.of("maxFileBytes", 0))
                .status());
    }

    @Test
    void anUploadInPiecesIsSentInAMessageAndDownloadedByAMember() {
        byte[] bytes = random(300_000, 1);
        TusClient.Answer created = tus.create(alice, Integer.toString(bytes.length), "report ü.pdf", "application/pdf");
        assertEquals(201, created.status(), created.toString());
        assertEquals("1.0.0", created.header("Tus-Resumable"));
        assertNotNull(created.header("Upload-Expires"));
        String location = created.header("Location");
        assertTrue(location.startsWith("/v1/uploads/"), location);
        String id = location.substring("/v1/uploads/".length());
        assertEquals(0, tus.offset(alice, id));

        byte[] first = Arrays.copyOfRange(bytes, 0, 100_000);
        TusClient.Answer p1 = tus.patch(alice, id, 0, first, TusClient.checksum(first));
        assertEquals(204, p1.status(), p1.toString());
        assertEquals("100000", p1.header("Upload-Offset"));
        assertEquals(100_000, tus.offset(alice, id));
        assertEquals(-404, tus.offset(bob, id), "HEAD is the uploader's only");
        assertEquals(404, tus.get(alice, "/v1/files/" + id, Map.of()).status(), "an unfinished upload is no file");
        Http.Response early = sendFile(alice, id, null);
        assertEquals(400, early.status(), "an unfinished file cannot be sent");

        TusClient.Answer p2 = tus.patch(alice, id, 100_000, Arrays.copyOfRange(bytes, 100_000, bytes.length), null);
        assertEquals(204, p2.status(), p2.toString());
        assertEquals(Integer.toString(bytes.length), p2.header("Upload-Offset"));

        Http.Response sentMessage = sendFile(alice, id, "the report");
        assertEquals(201, sentMessage.status(), sentMessage.json().toString());
        JsonNode part = sentMessage.json().get("parts").get(1);
        assertEquals("file", part.get("type").asText());
        assertEquals(id, part.get("fileId").asText());
        assertEquals("report ü.pdf", part.get("name").asText());
        assertEquals("application/pdf", part.get("contentType").asText());
        assertEquals(bytes.length, part.get("size").asLong());
        assertEquals(TusClient.hex(bytes), part.get("sha256").asText());
        assertFalse(part.has("width"));
        JsonNode listed = http.bearer("GET", "/v1/chat/rooms/" + room + "/messages", bob, null).json();
        assertEquals(part, listed.get("messages").get(0).get("parts").get(1), "stored as answered");

        TusClient.Answer download = tus.get(bob, "/v1/files/" + id, Map.of());
        assertEquals(200, download.status(), download.toString());
        assertArrayEquals(bytes, download.body());
        assertEquals("\"" + TusClient.hex(bytes) + "\"", download.header("ETag"));
        assertEquals("application/pdf", download.header("Content-Type"));
        assertEquals("nosniff", download.header("X-Content-Type-Options"));
        assertEquals("attachment; filename*=UTF-8''report%20%C3%BC.pdf", download.header("Content-Disposition"));
        assertTrue(download.header("Content-Security-Policy").contains("default-src 'none'"));
        assertEquals(Integer.toString(bytes.length), download.header("Content-Length"));

        TusClient.Answer range = tus.get(bob, "/v1/files/" + id, Map.of("Range", "bytes=1000-1999"));
        assertEquals(206, range.status());
        assertEquals("bytes 1000-1999/" + bytes.length, range.header("Content-Range"));
        assertArrayEquals(Arrays.copyOfRange(bytes, 1000, 2000), range.body());
        TusClient.Answer tail = tus.get(bob, "/v1/files/" + id, Map.of("Range", "bytes=-10"));
        assertArrayEquals(Arrays.copyOfRange(bytes, bytes.length - 10, bytes.length), tail.body());
        TusClient.Answer beyond = tus.get(bob, "/v1/files/" + id, Map.of("Range", "bytes=" + bytes.length + "-"));
        assertEquals(416, beyond.status());
        assertEquals("range_not_satisfiable", beyond.errorCode());
        TusClient.Answer cached = tus.get(bob, "/v1/files/" + id, Map.of("If-None-Match", download.header("ETag")));
        assertEquals(304, cached.status());

        assertEquals(404, tus.get(carol, "/v1/files/" + id, Map.of()).status(), "not a member");
        String other = http.mint(server.createTenant().apiKey(), "alice");
        assertEquals(404, tus.get(other, "/v1/files/" + id, Map.of()).status(), "another tenant's alice");
    }

    @Test
    void anImageGetsItsDimensionsInlineDispositionAndCachedThumbnails() throws IOException {
        byte[] image = png(800, 400, false);
        String id = tus.upload(alice, image, "photo.png", "image/png");
        JsonNode part = sendFile(alice, id, null).json().get("parts").get(0);
        assertEquals("image/png", part.get("contentType").asText());
        assertEquals(800, part.get("width").asInt());
        assertEquals(400, part.get("height").asInt());
        TusClient.Answer download = tus.get(bob, "/v1/files/" + id, Map.of());
        assertEquals("inline; filename*=UTF-8''photo.png", download.header("Content-Disposition"));

        TusClient.Answer thumb = tus.get(bob, "/v1/files/" + id + "/thumbnail?size=100", Map.of());
        assertEquals(200, thumb.status(), thumb.toString());
        assertEquals("image/jpeg", thumb.header("Content-Type"));
        assertEquals("nosniff", thumb.header("X-Content-Type-Options"));
        BufferedImage small = ImageIO.read(new ByteArrayInputStream(thumb.body()));
        assertEquals(100, small.getWidth());
        assertEquals(50, small.getHeight());
        assertArrayEquals(thumb.body(), tus.get(bob, "/v1/files/" + id + "/thumbnail?size=100", Map.of()).body(),
                "made once, then served from the cache");
        BufferedImage byDefault = ImageIO.read(new ByteArrayInputStream(
                tus.get(bob, "/v1/files/" + id + "/thumbnail", Map.of()).body()));
        assertEquals(320, byDefault.getWidth());
        assertEquals(400, tus.get(bob, "/v1/files/" + id + "/thumbnail?size=63", Map.of()).status());
        assertEquals(400, tus.get(bob, "/v1/files/" + id + "/thumbnail?size=1025", Map.of()).status());
        assertEquals(404, tus.get(carol, "/v1/files/" + id + "/thumbnail", Map.of()).status());

        String small64 = tus.upload(alice, png(40, 30, true), "tiny.png", "image/png");
        sendFile(alice, small64, null);
        TusClient.Answer notUpscaled = tus.get(bob, "/v1/files/" + small64 + "/thumbnail?size=64", Map.of());
        assertEquals("image/png", notUpscaled.header("Content-Type"), "transparency keeps PNG");
        BufferedImage kept = ImageIO.read(new ByteArrayInputStream(notUpscaled.body()));
        assertEquals(40, kept.getWidth(), "never upscaled");
        assertEquals(30, kept.getHeight());

        String text = tus.upload(alice, "hello".getBytes(), "a.txt", "text/plain");
        assertEquals(404, tus.get(alice, "/v1/files/" + text + "/thumbnail", Map.of()).status(), "images only");
    }

    @Test
    void bytesClaimingPngThatAreNotAreStoredAsOctetStream() {
        byte[] fake = "<html><script>alert(1)</script></html>".getBytes();
        String id = tus.upload(alice, fake, "evil.png", "image/png");
        JsonNode part = sendFile(alice, id, null).json().get("parts").get(0);
        assertEquals("application/octet-stream", part.get("contentType").asText());
        assertFalse(part.has("width"));
        TusClient.Answer download = tus.get(bob, "/v1/files/" + id, Map.of());
        assertEquals("application/octet-stream", download.header("Content-Type"));
        assertTrue(download.header("Content-Disposition").startsWith("attachment;"));
        assertEquals(404, tus.get(bob, "/v1/files/" + id + "/thumbnail", Map.of()).status());

        byte[] truncated = Arrays.copyOf(png(100, 100, false), 20); // a PNG signature, no readable header
        String broken = tus.upload(alice, truncated, "broken.png", "image/png");
        assertEquals("application/octet-stream", sendFile(alice, broken, null).json().get("parts").get(0)
                .get("contentType").asText());
    }

    @Test
    void aDeletedMessageNoLongerGrantsAccessAndTheFileMayThenBeTerminated() {
        String id = tus.upload(alice, random(1000, 2), "a.bin", null);
        String messageId = sendFile(alice, id, null).json().get("id").asText();
        assertEquals(200, tus.get(bob, "/v1/files/" + id, Map.of()).status());
        TusClient.Answer refused = tus.send("DELETE", "/v1/uploads/" + id, TusClient.tus(alice), null);
        assertEquals(409, refused.status(), "a referenced file is not terminated");
        assertEquals("conflict", refused.errorCode());

        assertEquals(200, http.bearer("DELETE", "/v1/chat/rooms/" + room + "/messages/" + messageId, alice, null)
                .status());
        TusClient.Answer gone = tus.get(bob, "/v1/files/" + id, Map.of());
        assertEquals(404, gone.status());
        assertEquals("not_found", gone.errorCode());
        assertEquals(200, tus.get(alice, "/v1/files/" + id, Map.of()).status(), "the uploader still reads it");

        assertEquals(404, tus.send("DELETE", "/v1/uploads/" + id, TusClient.tus(bob), null).status(),
                "only the uploader terminates");
        assertEquals(204, tus.send("DELETE", "/v1/uploads/" + id, TusClient.tus(alice), null).status());
        assertEquals(-404, tus.offset(alice, id));
        assertEquals(404, tus.get(alice, "/v1/files/" + id, Map.of()).status());
    }

    @Test
    void anEditThatDropsTheFileRevokesAccessAndAnEditThatAddsOneGrantsIt() {
        String id = tus.upload(alice, random(500, 3), "b.bin", null);
        String messageId = sendFile(alice, id, "caption").json().get("id").asText();
        Http.Response edited = http.bearer("PATCH", "/v1/chat/rooms/" + room + "/messages/" + messageId, alice,
                Map.of("parts", List.of(Map.of("type", "text", "text", "no file now"))));
        assertEquals(200, edited.status(), edited.json().toString());
        assertEquals(404, tus.get(bob, "/v1/files/" + id, Map.of()).status());
        edited = http.bearer("PATCH", "/v1/chat/rooms/" + room + "/messages/" + messageId, alice,
                Map.of("parts", List.of(Map.of("type", "file", "fileId", id))));
        assertEquals(200, edited.status(), edited.json().toString());
        assertEquals(500, edited.json().get("parts").get(0).get("size").asInt());
        assertEquals(200, tus.get(bob, "/v1/files/" + id, Map.of()).status());
    }

    @Test
    void anEmptyFileIsCompleteAtCreation() {
        String id = tus.createOk(alice, 0, "empty.txt", "text/plain");
        JsonNode part = sendFile(alice, id, null).json().get("parts").get(0);
        assertEquals(0, part.get("size").asInt());
        assertEquals(TusClient.hex(new byte[0]), part.get("sha256").asText());
        TusClient.Answer download = tus.get(bob, "/v1/files/" + id, Map.of());
        assertEquals(200, download.status());
        assertEquals(0, download.body().length);
        assertNull(download.header("Content-Range"));
    }
}
