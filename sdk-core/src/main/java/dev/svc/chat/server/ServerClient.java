package dev.svc.chat.server;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.ApiException;
import dev.svc.chat.ChatException;
import org.jspecify.annotations.Nullable;
import dev.svc.chat.Room;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.json.IsoTimestamps;
import dev.svc.chat.internal.json.RoomJsonAdapter;
import dev.svc.chat.internal.json.ServiceError;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;

/**
 * A client of the service's API-key routes, for tenant backends and bots only: never ship it, or the key,
 * in an app. Its calls block the calling thread and throw {@link ApiException} when the service refused
 * (status and contract code) or {@link TransportException} when the network failed.
 *
 * <pre>{@code
 * ServerClient svc = ServerClient.fromEnvironment();         // SVC_API_URL, SVC_API_KEY
 * MintedToken t = svc.mintToken(loggedInUserId, displayName, null);
 * }</pre>
 */
public final class ServerClient {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  private final HttpUrl apiUrl;
  private final String apiKey;
  private final OkHttpClient http;

  private ServerClient(HttpUrl apiUrl, String apiKey, OkHttpClient http) {
    this.apiUrl = apiUrl;
    this.apiKey = apiKey;
    this.http = http;
  }

  /**
   * Returns a client configured from the environment variables {@code SVC_API_URL} and {@code SVC_API_KEY}.
   *
   * @return the client
   * @throws IllegalStateException when either variable is missing
   */
  public static ServerClient fromEnvironment() {
    return create(null, null, null);
  }

  /**
   * Returns a client; a null URL or key is read from {@code SVC_API_URL} or {@code SVC_API_KEY}.
   *
   * @param apiUrl the API base {@code http(s)://host[:port]/v1}, or null for {@code SVC_API_URL}
   * @param apiKey the secret key {@code sk_...}, or null for {@code SVC_API_KEY}
   * @param http an OkHttp client to share (never shut down), or null for a new one
   * @return the client
   * @throws IllegalStateException when a value is missing from both the arguments and the environment
   * @throws IllegalArgumentException when the URL or the key is malformed
   */
  public static ServerClient create(@Nullable String apiUrl, @Nullable String apiKey, @Nullable OkHttpClient http) {
    String url = apiUrl != null ? apiUrl : System.getenv("SVC_API_URL");
    String key = apiKey != null ? apiKey : System.getenv("SVC_API_KEY");
    if (url == null || url.isEmpty()) throw new IllegalStateException("no API URL: pass one or set SVC_API_URL");
    if (key == null || key.isEmpty()) throw new IllegalStateException("no API key: pass one or set SVC_API_KEY");
    if (!key.startsWith("sk_")) throw new IllegalArgumentException("an API key starts with sk_");
    HttpUrl parsed = HttpUrl.parse(url.trim().replaceAll("/+$", ""));
    if (parsed == null) throw new IllegalArgumentException("not an http(s) URL: " + url);
    return new ServerClient(parsed, key, http != null ? http : new OkHttpClient());
  }

  /**
   * Mints a session token for a user ({@code POST /v1/auth/token}). With the tenant's
   * {@code autoCreateUsers} (the default) an unknown user is created; otherwise it is
   * {@code 404 user_not_found} until {@link #upsertUser} made it.
   *
   * @param userId the user, derived from the backend's own login, never from client input
   * @param username the display name, or null
   * @param expiresInSeconds 1 to 86400, or null for the default hour
   * @return the token, its expiry and the API URL for the app
   */
  public MintedToken mintToken(String userId, @Nullable String username, @Nullable Integer expiresInSeconds) {
    Map<String, Object> m = object(call("POST", "auth/token", body("userId", userId, "username", username,
        "expiresIn", expiresInSeconds)));
    return new MintedToken(str(m, "token"), IsoTimestamps.parse(str(m, "expiresAt")), str(m, "apiUrl"),
        str(m, "userId"), (String) m.get("username"));
  }

  /**
   * Creates or updates a user ({@code POST /v1/users}); a null username keeps the stored one.
   *
   * @param userId the user id
   * @param username the display name, or null
   * @return the user
   */
  public ChatUser upsertUser(String userId, @Nullable String username) {
    return user(object(call("POST", "users", body("userId", userId, "username", username))));
  }

  /**
   * Returns a user ({@code GET /v1/users/{userId}}).
   *
   * @param userId the user id
   * @return the user
   * @throws ApiException {@code 404 not_found} when there is none
   */
  public ChatUser getUser(String userId) {
    return user(object(call("GET", "users/" + segment(userId), null)));
  }

  /**
   * Creates a room ({@code POST /v1/chat/rooms}); members that are not users yet are created.
   *
   * @param name the room's name, or null
   * @param memberIds the members
   * @return the room
   */
  public Room createRoom(@Nullable String name, List<String> memberIds) {
    return room(call("POST", "chat/rooms", body("name", name, "memberIds", memberIds)));
  }

  /**
   * Adds members to a room ({@code POST /v1/chat/rooms/{roomId}/members}).
   *
   * @param roomId the room
   * @param userIds the users to add
   * @return the room
   */
  public Room addMembers(String roomId, List<String> userIds) {
    return room(call("POST", "chat/rooms/" + segment(roomId) + "/members", body("userIds", userIds)));
  }

  /**
   * Removes a member from a room ({@code DELETE /v1/chat/rooms/{roomId}/members/{userId}}).
   *
   * @param roomId the room
   * @param userId the member
   * @return the room
   */
  public Room removeMember(String roomId, String userId) {
    return room(call("DELETE", "chat/rooms/" + segment(roomId) + "/members/" + segment(userId), null));
  }

  /**
   * Returns the tenant's settings ({@code GET /v1/tenant/settings}).
   *
   * @return the settings
   */
  public TenantSettings tenantSettings() {
    return settings(object(call("GET", "tenant/settings", null)));
  }

  /**
   * Changes the tenant's settings ({@code PATCH /v1/tenant/settings}); null leaves a setting as it is.
   *
   * @param autoCreateUsers whether a mint creates unknown users, or null
   * @param callsEnabled whether calls are on, or null
   * @param webhookUrl the webhook URL, or null to leave it
   * @return the settings after the change
   */
  public TenantSettings updateTenantSettings(@Nullable Boolean autoCreateUsers, @Nullable Boolean callsEnabled,
      @Nullable String webhookUrl) {
    return settings(object(call("PATCH", "tenant/settings", body("autoCreateUsers", autoCreateUsers,
        "callsEnabled", callsEnabled, "webhookUrl", webhookUrl))));
  }

  @Override
  public String toString() {
    return "ServerClient{apiUrl=" + apiUrl + "}"; // never the key
  }

  // ---------------------------------------------------------------- plumbing

  private String call(String method, String path, @Nullable String json) {
    HttpUrl url = apiUrl.newBuilder().addEncodedPathSegments(path).build();
    RequestBody body = json == null ? (method.equals("GET") || method.equals("DELETE") ? null
        : RequestBody.create("{}", JSON)) : RequestBody.create(json, JSON);
    Request request = new Request.Builder().url(url).method(method, body)
        .header("x-api-key", apiKey).header("Accept", "application/json").build();
    try (Response response = http.newCall(request).execute()) {
      ResponseBody rb = response.body();
      String text = rb == null ? "" : rb.string();
      if (!response.isSuccessful()) {
        throw ServiceError.fromHttp(response.code(), text, dev.svc.chat.internal.rest.RetryAfter.millis(response));
      }
      return text;
    } catch (IOException e) {
      throw new TransportException(method + " " + url.encodedPath() + " failed: " + e.getMessage(), e);
    }
  }

  private static String segment(String s) {
    return HttpUrl.get("http://x/").newBuilder().addPathSegment(s).build().encodedPath().substring(1);
  }

  private static String body(Object... pairs) {
    Buffer buffer = new Buffer();
    try (JsonWriter w = JsonWriter.of(buffer)) {
      w.beginObject();
      for (int i = 0; i < pairs.length; i += 2) {
        Object v = pairs[i + 1];
        if (v == null) continue;
        w.name((String) pairs[i]);
        if (v instanceof List) {
          w.beginArray();
          for (Object o : (List<?>) v) w.value((String) o);
          w.endArray();
        } else if (v instanceof Boolean) {
          w.value((Boolean) v);
        } else if (v instanceof Number) {
          w.value((Number) v);
        } else {
          w.value((String) v);
        }
      }
      w.endObject();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(String json) {
    try {
      Object v = JsonReader.of(new Buffer().writeUtf8(json)).readJsonValue();
      if (!(v instanceof Map)) throw new ChatException("expected a JSON object: " + json);
      return (Map<String, Object>) v;
    } catch (IOException | RuntimeException e) {
      if (e instanceof ChatException) throw (ChatException) e;
      throw new ChatException("malformed answer: " + e.getMessage(), e);
    }
  }

  private static Room room(String json) {
    try {
      Room r = RoomJsonAdapter.INSTANCE.fromJson(json);
      if (r == null) throw new ChatException("null room");
      return r;
    } catch (IOException | RuntimeException e) {
      if (e instanceof ChatException) throw (ChatException) e;
      throw new ChatException("malformed room: " + e.getMessage(), e);
    }
  }

  private static String str(Map<String, Object> m, String name) {
    Object v = m.get(name);
    if (!(v instanceof String)) throw new ChatException("answer without " + name + ": " + Arrays.asList(m.keySet()));
    return (String) v;
  }

  private static ChatUser user(Map<String, Object> m) {
    return new ChatUser(str(m, "userId"), (String) m.get("username"), IsoTimestamps.parse(str(m, "createdAt")),
        IsoTimestamps.parse(str(m, "updatedAt")));
  }

  private static TenantSettings settings(Map<String, Object> m) {
    return new TenantSettings(!Boolean.FALSE.equals(m.get("autoCreateUsers")),
        !Boolean.FALSE.equals(m.get("callsEnabled")), (String) m.get("webhookUrl"));
  }
}
