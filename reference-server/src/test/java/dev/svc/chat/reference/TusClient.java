package dev.svc.chat.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/** A small tus 1.0.0 client for the tests of contract section 9: raw requests, bytes out, headers kept. */
final class TusClient {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final String origin;

    TusClient(int port) {
        this.origin = "http://127.0.0.1:" + port;
    }

    /** An answer: status, headers, body bytes, and the body as JSON when it is JSON. */
    record Answer(int status, HttpResponse<byte[]> raw) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        byte[] body() {
            return raw.body();
        }

        JsonNode json() {
            try {
                return raw.body().length == 0 ? MissingNode.getInstance() : Http.JSON.readTree(raw.body());
            } catch (IOException e) {
                return MissingNode.getInstance();
            }
        }

        String errorCode() {
            return json().path("error").path("code").asText(null);
        }

        @Override
        public String toString() {
            return status + " " + new String(raw.body(), StandardCharsets.UTF_8);
        }
    }

    /** Sends a request with these headers (a null value leaves a header out) and body (null: none). */
    Answer send(String method, String path, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach((k, v) -> {
            if (v != null) {
                request.header(k, v);
            }
        });
        return exchange(request);
    }

    /** Sends a PATCH body without a Content-Length (chunked). */
    Answer sendChunked(String method, String path, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)));
        headers.forEach(request::header);
        return exchange(request);
    }

    private static Answer exchange(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), response);
        } catch (IOException e) {
            throw new RuntimeException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
    }

    /** Returns the headers of a tus request with the token. */
    static Map<String, String> tus(String token) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + token);
        headers.put("Tus-Resumable", "1.0.0");
        return headers;
    }

    /** Returns the {@code Upload-Metadata} value of a name and type (either may be null). */
    static String metadata(String filename, String contentType) {
        StringBuilder out = new StringBuilder();
        if (filename != null) {
            out.append("filename ").append(b64(filename.getBytes(StandardCharsets.UTF_8)));
        }
        if (contentType != null) {
            out.append(out.length() > 0 ? "," : "").append("contentType ")
                    .append(b64(contentType.getBytes(StandardCharsets.UTF_8)));
        }
        return out.toString();
    }

    /** Creates an upload; the answer carries its Location. */
    Answer create(String token, String length, String filename, String contentType) {
        Map<String, String> headers = tus(token);
        headers.put("Upload-Length", length);
        headers.put("Upload-Metadata", metadata(filename, contentType));
        return send("POST", "/v1/uploads", headers, null);
    }

    /** Creates an upload that must succeed and returns its file id. */
    String createOk(String token, long length, String filename, String contentType) {
        Answer a = create(token, Long.toString(length), filename, contentType);
        if (a.status() != 201) {
            throw new AssertionError("create: " + a);
        }
        String location = a.header("Location");
        return location.substring(location.lastIndexOf('/') + 1);
    }

    /** Sends one PATCH of {@code bytes} at {@code offset}, with a checksum when {@code checksum} is not null. */
    Answer patch(String token, String fileId, long offset, byte[] bytes, String checksum) {
        Map<String, String> headers = tus(token);
        headers.put("Content-Type", "application/offset+octet-stream");
        headers.put("Upload-Offset", Long.toString(offset));
        headers.put("Upload-Checksum", checksum);
        return send("PATCH", "/v1/uploads/" + fileId, headers, bytes);
    }

    /** Returns the upload's offset from HEAD, or -status when HEAD is not 200. */
    long offset(String token, String fileId) {
        Answer a = send("HEAD", "/v1/uploads/" + fileId, tus(token), null);
        return a.status() == 200 ? Long.parseLong(a.header("Upload-Offset")) : -a.status();
    }

    /** Uploads {@code bytes} whole in one PATCH and returns the file id. */
    String upload(String token, byte[] bytes, String filename, String contentType) {
        String id = createOk(token, bytes.length, filename, contentType);
        if (bytes.length > 0) {
            Answer a = patch(token, id, 0, bytes, checksum(bytes));
            if (a.status() != 204) {
                throw new AssertionError("patch: " + a);
            }
        }
        return id;
    }

    /** GETs a path with the token and extra headers. */
    Answer get(String token, String path, Map<String, String> extra) {
        Map<String, String> headers = new LinkedHashMap<>(extra);
        headers.put("Authorization", "Bearer " + token);
        return send("GET", path, headers, null);
    }

    static String checksum(byte[] bytes) {
        return "sha256 " + b64(sha256(bytes));
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(sha256(bytes));
    }

    static String b64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
