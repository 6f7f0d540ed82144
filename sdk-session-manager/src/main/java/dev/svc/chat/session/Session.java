package dev.svc.chat.session;

import org.jspecify.annotations.Nullable;

/**
 * A session as the tenant's {@code /api/chat/session} route answers it: a session token for one user, the
 * API URL the client must use, and the token's expiry. Bots and tests can build one directly.
 */
public final class Session {
  private final String token;
  private final String apiUrl;
  private final String chatUserId;
  private final long expiresAtMillis;
  private final @Nullable String displayName;

  private Session(Builder b) {
    this.token = b.token;
    this.apiUrl = b.apiUrl;
    this.chatUserId = b.chatUserId;
    this.expiresAtMillis = b.expiresAtMillis;
    this.displayName = b.displayName;
  }

  /**
   * Returns a builder of a session.
   *
   * @param token the session token (a JWT), never an API key
   * @param apiUrl the API base, {@code http(s)://host[:port]/v1}
   * @param chatUserId the user the token is for
   * @param expiresAtMillis the token's expiry in epoch milliseconds
   * @return a new builder
   */
  public static Builder builder(String token, String apiUrl, String chatUserId, long expiresAtMillis) {
    return new Builder(token, apiUrl, chatUserId, expiresAtMillis);
  }

  /**
   * Returns the session token. Never log it.
   *
   * @return the token
   */
  public String token() {
    return token;
  }

  /**
   * Returns the API base the client is created with.
   *
   * @return the API URL
   */
  public String apiUrl() {
    return apiUrl;
  }

  /**
   * Returns the user the token is for.
   *
   * @return the user id
   */
  public String chatUserId() {
    return chatUserId;
  }

  /**
   * Returns when the token expires.
   *
   * @return epoch milliseconds
   */
  public long expiresAtMillis() {
    return expiresAtMillis;
  }

  /**
   * Returns the user's display name, if the route gave one.
   *
   * @return the display name, or null
   */
  public @Nullable String displayName() {
    return displayName;
  }

  /**
   * Returns why this session cannot follow {@code previous} in one manager (another user or another
   * {@code apiUrl}: the client is bound to both), or null when it can.
   */
  @Nullable IllegalStateException cannotFollow(@Nullable Session previous) {
    if (previous == null) return null;
    if (!previous.chatUserId.equals(chatUserId)) {
      return new IllegalStateException("the signed-in user changed; create a new SessionManager for the new user");
    }
    if (!previous.apiUrl.equals(apiUrl)) {
      return new IllegalStateException("the session's apiUrl changed; create a new SessionManager");
    }
    return null;
  }

  @Override
  public String toString() {
    // never the token
    return "Session{chatUserId=" + chatUserId + ", apiUrl=" + apiUrl + ", expiresAtMillis=" + expiresAtMillis + "}";
  }

  /** Builds a {@link Session}. */
  public static final class Builder {
    private final String token;
    private final String apiUrl;
    private final String chatUserId;
    private final long expiresAtMillis;
    private @Nullable String displayName;

    Builder(String token, String apiUrl, String chatUserId, long expiresAtMillis) {
      if (token == null || token.trim().isEmpty()) throw new IllegalArgumentException("token is empty");
      if (token.startsWith("sk_")) {
        throw new IllegalArgumentException("an API key (sk_...) is not a session token; never give it to a client");
      }
      if (apiUrl == null || apiUrl.isEmpty()) throw new IllegalArgumentException("apiUrl is empty");
      if (chatUserId == null || chatUserId.isEmpty()) throw new IllegalArgumentException("chatUserId is empty");
      if (expiresAtMillis <= 0) throw new IllegalArgumentException("expiresAtMillis <= 0: " + expiresAtMillis);
      this.token = token;
      this.apiUrl = apiUrl;
      this.chatUserId = chatUserId;
      this.expiresAtMillis = expiresAtMillis;
    }

    /**
     * Sets the display name.
     *
     * @param displayName the name, or null
     * @return this builder
     */
    public Builder displayName(@Nullable String displayName) {
      this.displayName = displayName;
      return this;
    }

    /**
     * Returns the session.
     *
     * @return a new immutable session
     */
    public Session build() {
      return new Session(this);
    }
  }
}
