package dev.svc.chat.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A tiny JDK HTTP client for the tests: JSON in, status and JSON out. */
final class Http {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final String origin;

    Http(ReferenceServer server) {
        this(server.port());
    }

    /** Talks to a server on 127.0.0.1:{@code port} (one in a child JVM). */
    Http(int port) {
        this.origin = "http://127.0.0.1:" + port;
    }

    /** A response: status, headers, and the body as JSON (MissingNode when empty or not JSON). */
    record Response(int status, HttpResponse<String> raw, JsonNode json) {
        String errorCode() {
            return json.path("error").path("code").asText(null);
        }

        String errorMessage() {
            return json.path("error").path("message").asText(null);
        }
    }

    Response apiKey(String method, String path, String apiKey, Object body) {
        return send(method, path, body == null ? null : toJson(body), Map.of("x-api-key", apiKey));
    }

    Response bearer(String method, String path, String token, Object body) {
        return send(method, path, body == null ? null : toJson(body), Map.of("Authorization", "Bearer " + token));
    }

    Response send(String method, String path, String body, Map<String, String> headers) {
        return send(method, path, body, headers, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
    }

    /** Sends {@code body} as raw bytes (for malformed UTF-8), with a Content-Length. */
    Response sendBytes(String method, String path, byte[] body, Map<String, String> headers) {
        return send(method, path, "", headers, HttpRequest.BodyPublishers.ofByteArray(body));
    }

    /** Sends {@code body} without a Content-Length (chunked transfer encoding). */
    Response sendChunked(String method, String path, String body, Map<String, String> headers) {
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return send(method, path, body, headers,
                HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes)));
    }

    private Response send(String method, String path, String body, Map<String, String> headers,
                          HttpRequest.BodyPublisher publisher) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, publisher);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json;
            try {
                json = response.body().isEmpty() ? MissingNode.getInstance() : JSON.readTree(response.body());
            } catch (IOException e) {
                json = MissingNode.getInstance();
            }
            return new Response(response.statusCode(), response, json);
        } catch (IOException e) {
            throw new RuntimeException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
    }

    /** Mints a token for {@code userId} of the tenant of {@code apiKey}. */
    String mint(String apiKey, String userId) {
        Response r = apiKey("POST", "/v1/auth/token", apiKey, Map.of("userId", userId));
        if (r.status() != 200) {
            throw new AssertionError("mint failed: " + r.status() + " " + r.json());
        }
        return r.json().get("token").asText();
    }

    /** Creates a room with these members and returns its id. */
    String createRoom(String apiKey, String... members) {
        Response r = apiKey("POST", "/v1/chat/rooms", apiKey, Map.of("memberIds", java.util.List.of(members)));
        if (r.status() != 201) {
            throw new AssertionError("create room failed: " + r.status() + " " + r.json());
        }
        return r.json().get("id").asText();
    }

    /** Sends a text message as the token's user. */
    Response sendText(String token, String roomId, String clientMessageId, String text) {
        return bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", token, Map.of(
                "clientMessageId", clientMessageId,
                "parts", java.util.List.of(Map.of("type", "text", "text", text))));
    }

    static String toJson(Object body) {
        if (body instanceof String s) {
            return s;
        }
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}
