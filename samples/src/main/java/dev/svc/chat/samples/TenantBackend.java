package dev.svc.chat.samples;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tenant backend's part of the demo: it holds the API key and mints session tokens for its
 * users. Apps never see the key; they only get the tokens.
 */
final class TenantBackend {
  private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String apiUrl;
  private final String apiKey;

  TenantBackend(String apiUrl, String apiKey) {
    this.apiUrl = apiUrl.replaceFirst("/+$", "");
    this.apiKey = apiKey;
  }

  /** Mints a one-hour session token for {@code userId} (created on the fly by the service). */
  String mintToken(String userId, String displayName) throws IOException, InterruptedException {
    String body = "{\"userId\":\"" + userId + "\",\"username\":\"" + displayName + "\"}";
    return extract(TOKEN, post("/auth/token", body, 200));
  }

  /** Creates a room with these members and returns its id. */
  String createRoom(String name, String... memberIds) throws IOException, InterruptedException {
    String body = "{\"name\":\"" + name + "\",\"memberIds\":[\"" + String.join("\",\"", memberIds) + "\"]}";
    return extract(ID, post("/chat/rooms", body, 201));
  }

  private String post(String path, String json, int expected) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(apiUrl + path))
        .header("x-api-key", apiKey)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != expected) {
      throw new IOException("POST " + path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  private static String extract(Pattern p, String body) throws IOException {
    Matcher m = p.matcher(body);
    if (!m.find()) throw new IOException("unexpected answer: " + body);
    return m.group(1);
  }
}
