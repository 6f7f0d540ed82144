package dev.svc.chat.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The tenant backend's side of the tests: raw HTTP with the API key (or any credential), written
 * independently of the SDK so that the SDK's own mistakes cannot hide behind it.
 */
final class Admin {
  static final ObjectMapper JSON = new ObjectMapper();

  /** A status and a parsed JSON body (null for an empty one). */
  record Answer(int status, JsonNode body, HttpResponse<String> raw) {
    String errorCode() {
      return body.path("error").path("code").asText(null);
    }

    String errorMessage() {
      return body.path("error").path("message").asText(null);
    }
  }

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String origin;
  private final String apiKey;

  Admin(String apiUrl, String apiKey) {
    this.origin = apiUrl.replaceFirst("/v1/?$", "");
    this.apiKey = apiKey;
  }

  /** Mints a session token for {@code userId} and returns it. */
  String mint(String userId, int expiresIn) throws Exception {
    Answer a = call("POST", "/v1/auth/token", Map.of("userId", userId, "expiresIn", expiresIn), apiKeyHeader());
    if (a.status() != 200) throw new AssertionError("mint failed: " + a.status() + " " + a.body());
    return a.body().get("token").asText();
  }

  String mint(String userId) throws Exception {
    return mint(userId, 3600);
  }

  /** Creates a room with these members and returns its id. */
  String createRoom(String name, String... memberIds) throws Exception {
    Answer a = call("POST", "/v1/chat/rooms", Map.of("name", name, "memberIds", List.of(memberIds)), apiKeyHeader());
    if (a.status() != 201) throw new AssertionError("create room failed: " + a.status() + " " + a.body());
    return a.body().get("id").asText();
  }

  String[] apiKeyHeader() {
    return new String[] {"x-api-key", apiKey};
  }

  static String[] bearer(String token) {
    return new String[] {"Authorization", "Bearer " + token};
  }

  /** Sends one request; {@code body} is serialised as JSON unless null. */
  Answer call(String method, String path, Object body, String... headers) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(origin + path)).timeout(Duration.ofSeconds(10));
    if (headers.length > 0) b.headers(headers);
    if (body != null) {
      b.header("Content-Type", "application/json");
      b.method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode parsed = r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body());
    return new Answer(r.statusCode(), parsed, r);
  }
}
