package dev.svc.chat.server;

import org.jspecify.annotations.Nullable;

/** A minted session token: the answer of {@code POST /v1/auth/token}. */
public final class MintedToken {
  private final String token;
  private final long expiresAtMillis;
  private final String apiUrl;
  private final String userId;
  private final @Nullable String username;

  MintedToken(String token, long expiresAtMillis, String apiUrl, String userId, @Nullable String username) {
    this.token = token;
    this.expiresAtMillis = expiresAtMillis;
    this.apiUrl = apiUrl;
    this.userId = userId;
    this.username = username;
  }

  /**
   * Returns the session token (a JWT) to hand to the user's app. Never log it.
   *
   * @return the token
   */
  public String token() {
    return token;
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
   * Returns the API base the app's client must use.
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
  public String userId() {
    return userId;
  }

  /**
   * Returns the user's stored display name.
   *
   * @return the name, or null
   */
  public @Nullable String username() {
    return username;
  }

  @Override
  public String toString() {
    return "MintedToken{userId=" + userId + ", expiresAtMillis=" + expiresAtMillis + "}";
  }
}
