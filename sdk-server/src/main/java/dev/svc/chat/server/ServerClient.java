package dev.svc.chat.server;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * A client of the service's API-key routes (contract section 3), for tenant backends and bots only: never
 * ship it, or the key, in an app. Each operation has a blocking form, which throws, and an {@code ...Async}
 * form, which returns a {@link CompletableFuture} failed with the same exceptions:
 * {@link ServerApiException} when the service refused (status and contract code),
 * {@link ServerTransportException} when the network failed, {@link ServerException} for an answer it cannot
 * read.
 *
 * <pre>{@code
 * ServerClient svc = ServerClient.fromEnvironment();         // SVC_API_URL, SVC_API_KEY
 * MintedToken t = svc.mintToken(MintRequest.builder(loggedInUserId).username(displayName).build());
 * svc.mintTokenAsync(loggedInUserId).thenAccept(token -> reply(token));
 * }</pre>
 *
 * <p>Async calls run on the OkHttp client's Dispatcher; their futures complete on the
 * {@link Builder#callbackExecutor(Executor) callback executor} if one was given, else on the Dispatcher thread
 * that read the answer (keep stages on it short, or give an executor). Cancelling a future cancels its call.
 * Instances are immutable and thread-safe, and hold nothing to close: without an
 * {@link Builder#okHttpClient(OkHttpClient) OkHttp client} of its own, every client of the JVM shares one whose
 * threads are daemon threads. The key never appears in a message or in {@link #toString()}.
 */
public final class ServerClient {
  private final ApiRequests api;

  private ServerClient(Builder b) {
    this.api = new ApiRequests(b.apiUrl, b.apiKey, b.http != null ? b.http : DefaultHttp.client(), b.callbackExecutor);
  }

  /**
   * Returns a client configured from the environment variables {@code SVC_API_URL} and {@code SVC_API_KEY}.
   * {@code SVC_API_URL} is the API base ({@code https://host/v1}) or the origin alone ({@code https://host},
   * to which {@code /v1} is appended); another path is refused with a message that says what to write.
   *
   * @return the client
   * @throws IllegalStateException when either variable is missing
   * @throws IllegalArgumentException when the URL or the key is malformed
   */
  public static ServerClient fromEnvironment() {
    String url = System.getenv("SVC_API_URL");
    String key = System.getenv("SVC_API_KEY");
    if (url == null || url.isEmpty()) throw new IllegalStateException("no API URL: set SVC_API_URL");
    if (key == null || key.isEmpty()) throw new IllegalStateException("no API key: set SVC_API_KEY");
    return builder(url, key).build();
  }

  /**
   * Returns a client with the default options.
   *
   * @param apiUrl the API base {@code http(s)://host[:port]/v1}, or the origin alone ({@code /v1} is appended)
   * @param apiKey the secret key {@code sk_...}
   * @return the client
   * @throws IllegalArgumentException when the URL or the key is malformed
   */
  public static ServerClient create(String apiUrl, String apiKey) {
    return builder(apiUrl, apiKey).build();
  }

  /**
   * Returns a builder of a client.
   *
   * @param apiUrl the API base {@code http(s)://host[:port]/v1}, or the origin alone ({@code /v1} is appended)
   * @param apiKey the secret key {@code sk_...}
   * @return the builder
   * @throws IllegalArgumentException when the URL or the key is malformed, or the URL's path is neither empty nor
   *     ends with {@code /v1} (the message says what to write)
   */
  public static Builder builder(String apiUrl, String apiKey) {
    return new Builder(apiUrl, apiKey);
  }

  /**
   * Mints a session token for a user with the service's defaults ({@code POST /v1/auth/token}).
   *
   * @param userId the user, derived from the backend's own login, never from client input
   * @return the token, its expiry and the API URL for the app
   * @throws IllegalArgumentException if the user id is malformed
   * @see #mintToken(MintRequest)
   */
  public MintedToken mintToken(String userId) {
    return mintToken(MintRequest.of(userId));
  }

  /**
   * Mints a session token ({@code POST /v1/auth/token}). With the tenant's {@code autoCreateUsers} (the
   * default) an unknown user is created; otherwise it is {@code 404 user_not_found} until
   * {@link #upsertUser(String)} made it.
   *
   * @param request the user, and optionally the name and the lifetime
   * @return the token, its expiry and the API URL for the app
   */
  public MintedToken mintToken(MintRequest request) {
    return api.execute("POST", "auth/token", mintBody(request), Wire::token);
  }

  /**
   * Mints a session token with the service's defaults, asynchronously.
   *
   * @param userId the user, derived from the backend's own login, never from client input
   * @return the future token
   * @throws IllegalArgumentException if the user id is malformed
   */
  public CompletableFuture<MintedToken> mintTokenAsync(String userId) {
    return mintTokenAsync(MintRequest.of(userId));
  }

  /**
   * Mints a session token, asynchronously (see {@link #mintToken(MintRequest)}).
   *
   * @param request the user, and optionally the name and the lifetime
   * @return the future token
   */
  public CompletableFuture<MintedToken> mintTokenAsync(MintRequest request) {
    return api.enqueue("POST", "auth/token", mintBody(request), Wire::token);
  }

  /**
   * Creates a user, or keeps an existing one as it is ({@code POST /v1/users}).
   *
   * @param userId the user id
   * @return the user
   */
  public ChatUser upsertUser(String userId) {
    return api.execute("POST", "users", Wire.body("userId", given(userId, "userId")), Wire::user);
  }

  /**
   * Creates or updates a user with a display name ({@code POST /v1/users}).
   *
   * @param userId the user id
   * @param username the display name
   * @return the user
   */
  public ChatUser upsertUser(String userId, String username) {
    return api.execute("POST", "users", Wire.body("userId", given(userId, "userId"), "username", given(username, "username")), Wire::user);
  }

  /**
   * Creates a user, or keeps an existing one as it is, asynchronously.
   *
   * @param userId the user id
   * @return the future user
   */
  public CompletableFuture<ChatUser> upsertUserAsync(String userId) {
    return api.enqueue("POST", "users", Wire.body("userId", given(userId, "userId")), Wire::user);
  }

  /**
   * Creates or updates a user with a display name, asynchronously.
   *
   * @param userId the user id
   * @param username the display name
   * @return the future user
   */
  public CompletableFuture<ChatUser> upsertUserAsync(String userId, String username) {
    return api.enqueue("POST", "users", Wire.body("userId", given(userId, "userId"), "username", given(username, "username")), Wire::user);
  }

  /**
   * Returns a user ({@code GET /v1/users/{userId}}).
   *
   * @param userId the user id
   * @return the user
   * @throws ServerApiException {@code 404 not_found} when there is none
   */
  public ChatUser getUser(String userId) {
    return api.execute("GET", "users/" + segment(userId), null, Wire::user);
  }

  /**
   * Returns a user, asynchronously; the future fails with {@code 404 not_found} when there is none.
   *
   * @param userId the user id
   * @return the future user
   */
  public CompletableFuture<ChatUser> getUserAsync(String userId) {
    return api.enqueue("GET", "users/" + segment(userId), null, Wire::user);
  }

  /**
   * Creates a room without a name ({@code POST /v1/chat/rooms}); members that are not users yet are created.
   *
   * @param memberIds the members
   * @return the room
   */
  public ChatRoom createRoom(List<String> memberIds) {
    return api.execute("POST", "chat/rooms", Wire.body("memberIds", given(memberIds, "memberIds")), Wire::room);
  }

  /**
   * Creates a named room ({@code POST /v1/chat/rooms}); members that are not users yet are created.
   *
   * @param name the room's name
   * @param memberIds the members
   * @return the room
   */
  public ChatRoom createRoom(String name, List<String> memberIds) {
    return api.execute("POST", "chat/rooms", Wire.body("name", given(name, "name"), "memberIds", given(memberIds, "memberIds")), Wire::room);
  }

  /**
   * Creates a room without a name, asynchronously.
   *
   * @param memberIds the members
   * @return the future room
   */
  public CompletableFuture<ChatRoom> createRoomAsync(List<String> memberIds) {
    return api.enqueue("POST", "chat/rooms", Wire.body("memberIds", given(memberIds, "memberIds")), Wire::room);
  }

  /**
   * Creates a named room, asynchronously.
   *
   * @param name the room's name
   * @param memberIds the members
   * @return the future room
   */
  public CompletableFuture<ChatRoom> createRoomAsync(String name, List<String> memberIds) {
    return api.enqueue("POST", "chat/rooms", Wire.body("name", given(name, "name"), "memberIds", given(memberIds, "memberIds")), Wire::room);
  }

  /**
   * Adds members to a room ({@code POST /v1/chat/rooms/{roomId}/members}).
   *
   * @param roomId the room
   * @param userIds the users to add
   * @return the room
   */
  public ChatRoom addMembers(String roomId, List<String> userIds) {
    return api.execute("POST", membersPath(roomId), Wire.body("userIds", given(userIds, "userIds")), Wire::room);
  }

  /**
   * Adds members to a room, asynchronously.
   *
   * @param roomId the room
   * @param userIds the users to add
   * @return the future room
   */
  public CompletableFuture<ChatRoom> addMembersAsync(String roomId, List<String> userIds) {
    return api.enqueue("POST", membersPath(roomId), Wire.body("userIds", given(userIds, "userIds")), Wire::room);
  }

  /**
   * Removes a member from a room ({@code DELETE /v1/chat/rooms/{roomId}/members/{userId}}).
   *
   * @param roomId the room
   * @param userId the member
   * @return the room
   */
  public ChatRoom removeMember(String roomId, String userId) {
    return api.execute("DELETE", membersPath(roomId) + "/" + segment(userId), null, Wire::room);
  }

  /**
   * Removes a member from a room, asynchronously.
   *
   * @param roomId the room
   * @param userId the member
   * @return the future room
   */
  public CompletableFuture<ChatRoom> removeMemberAsync(String roomId, String userId) {
    return api.enqueue("DELETE", membersPath(roomId) + "/" + segment(userId), null, Wire::room);
  }

  /**
   * Returns the tenant's settings ({@code GET /v1/tenant/settings}).
   *
   * @return the settings
   */
  public TenantSettings tenantSettings() {
    return api.execute("GET", "tenant/settings", null, Wire::settings);
  }

  /**
   * Returns the tenant's settings, asynchronously.
   *
   * @return the future settings
   */
  public CompletableFuture<TenantSettings> tenantSettingsAsync() {
    return api.enqueue("GET", "tenant/settings", null, Wire::settings);
  }

  /**
   * Changes the tenant's settings ({@code PATCH /v1/tenant/settings}): only those the update sets.
   *
   * @param update the settings to change
   * @return the settings after the change
   */
  public TenantSettings updateTenantSettings(TenantSettingsUpdate update) {
    return api.execute("PATCH", "tenant/settings", given(update, "update").toJson(), Wire::settings);
  }

  /**
   * Changes the tenant's settings, asynchronously.
   *
   * @param update the settings to change
   * @return the future settings after the change
   */
  public CompletableFuture<TenantSettings> updateTenantSettingsAsync(TenantSettingsUpdate update) {
    return api.enqueue("PATCH", "tenant/settings", given(update, "update").toJson(), Wire::settings);
  }

  @Override
  public String toString() {
    return "ServerClient{apiUrl=" + api.apiUrl() + "}"; // never the key
  }

  private static String mintBody(MintRequest r) {
    given(r, "request");
    Long seconds = r.expiresIn() == null ? null : r.expiresIn().getSeconds();
    return Wire.body("userId", r.userId(), "username", r.username(), "expiresIn", seconds);
  }

  private static String membersPath(String roomId) {
    return "chat/rooms/" + segment(roomId) + "/members";
  }

  /** Checks an argument: the request bodies leave null values out, so a null would change the request's meaning. */
  private static <T> T given(T value, String name) {
    if (value == null) throw new NullPointerException(name + " == null");
    return value;
  }

  private static String segment(String s) {
    given(s, "id");
    return HttpUrl.get("http://x/").newBuilder().addPathSegment(s).build().encodedPath().substring(1);
  }

  /** Options of a {@link ServerClient}. */
  public static final class Builder {
    private final HttpUrl apiUrl;
    private final String apiKey;
    private @Nullable OkHttpClient http;
    private @Nullable Executor callbackExecutor;

    private Builder(String apiUrl, String apiKey) {
      if (apiUrl == null) throw new NullPointerException("apiUrl == null");
      if (apiKey == null) throw new NullPointerException("apiKey == null");
      if (!apiKey.startsWith("sk_")) throw new IllegalArgumentException("an API key starts with sk_");
      this.apiUrl = ApiBase.parse(apiUrl);
      this.apiKey = apiKey;
    }

    /**
     * Sets the OkHttp client to send with, shared and never shut down by this client (default: one shared by
     * every {@code ServerClient} of the JVM, on daemon threads).
     *
     * @param http the client
     * @return this builder
     */
    public Builder okHttpClient(OkHttpClient http) {
      if (http == null) throw new NullPointerException("http == null");
      this.http = http;
      return this;
    }

    /**
     * Sets the executor that completes the futures of the {@code ...Async} methods, and so runs their
     * dependent stages (default: none, the OkHttp Dispatcher thread that read the answer completes them). A
     * future whose completion the executor refuses fails with its {@code RejectedExecutionException}.
     *
     * @param executor the executor
     * @return this builder
     */
    public Builder callbackExecutor(Executor executor) {
      if (executor == null) throw new NullPointerException("executor == null");
      this.callbackExecutor = executor;
      return this;
    }

    /**
     * Returns the client.
     *
     * @return a new client
     */
    public ServerClient build() {
      return new ServerClient(this);
    }
  }
}
