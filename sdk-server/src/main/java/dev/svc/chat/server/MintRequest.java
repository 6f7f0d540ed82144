package dev.svc.chat.server;

import java.time.Duration;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * What {@link ServerClient#mintToken(MintRequest)} asks for: the user, and optionally the display name to
 * store and the token's lifetime.
 *
 * <pre>{@code
 * MintedToken t = svc.mintToken(MintRequest.builder(userId).username("Alice").expiresIn(Duration.ofMinutes(30)).build());
 * }</pre>
 */
public final class MintRequest {
  /** The shortest lifetime the service accepts. */
  public static final Duration MIN_EXPIRES_IN = Duration.ofSeconds(1);
  /** The longest lifetime the service accepts, a day. */
  public static final Duration MAX_EXPIRES_IN = Duration.ofDays(1);

  /** Contract section 1: 1 to 128 characters from {@code A-Z a-z 0-9 _ - . @ :}. */
  private static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9_\\-.@:]{1,128}");

  private final String userId;
  private final @Nullable String username;
  private final @Nullable Duration expiresIn;

  private MintRequest(Builder b) {
    this.userId = b.userId;
    this.username = b.username;
    this.expiresIn = b.expiresIn;
  }

  /**
   * Returns a request for a token of {@code userId} with the service's defaults (an hour; the stored name).
   *
   * @param userId the user, derived from the backend's own login, never from client input
   * @return the request
   * @throws IllegalArgumentException if the id is not 1 to 128 characters of {@code A-Z a-z 0-9 _ - . @ :}
   */
  public static MintRequest of(String userId) {
    return builder(userId).build();
  }

  /**
   * Returns a builder of a request for a token of {@code userId}.
   *
   * @param userId the user, derived from the backend's own login, never from client input
   * @return the builder
   * @throws IllegalArgumentException if the id is not 1 to 128 characters of {@code A-Z a-z 0-9 _ - . @ :}
   */
  public static Builder builder(String userId) {
    return new Builder(userId);
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
   * Returns the display name to store for the user and put in the token.
   *
   * @return the name, or null to keep the stored one
   */
  public @Nullable String username() {
    return username;
  }

  /**
   * Returns the token's lifetime.
   *
   * @return the lifetime, or null for the service's default (an hour)
   */
  public @Nullable Duration expiresIn() {
    return expiresIn;
  }

  @Override
  public String toString() {
    return "MintRequest{userId=" + userId + ", username=" + username + ", expiresIn=" + expiresIn + "}";
  }

  /** Builds a {@link MintRequest}. */
  public static final class Builder {
    private final String userId;
    private @Nullable String username;
    private @Nullable Duration expiresIn;

    private Builder(String userId) {
      if (userId == null) throw new NullPointerException("userId == null");
      if (!USER_ID.matcher(userId).matches()) {
        throw new IllegalArgumentException("a userId is 1 to 128 characters of A-Z a-z 0-9 _ - . @ :");
      }
      this.userId = userId;
    }

    /**
     * Sets the display name to store for the user (an unknown user is created with it).
     *
     * @param username the name, not empty
     * @return this builder
     */
    public Builder username(String username) {
      if (username == null) throw new NullPointerException("username == null");
      if (username.isEmpty()) throw new IllegalArgumentException("username is empty");
      this.username = username;
      return this;
    }

    /**
     * Sets the token's lifetime (default an hour).
     *
     * @param expiresIn whole seconds from {@link #MIN_EXPIRES_IN} to {@link #MAX_EXPIRES_IN}
     * @return this builder
     * @throws IllegalArgumentException if it is out of range or not whole seconds
     */
    public Builder expiresIn(Duration expiresIn) {
      if (expiresIn == null) throw new NullPointerException("expiresIn == null");
      if (expiresIn.getNano() != 0 || expiresIn.compareTo(MIN_EXPIRES_IN) < 0
          || expiresIn.compareTo(MAX_EXPIRES_IN) > 0) {
        throw new IllegalArgumentException("expiresIn must be whole seconds from 1 s to 1 day: " + expiresIn);
      }
      this.expiresIn = expiresIn;
      return this;
    }

    /**
     * Returns the request.
     *
     * @return a new immutable request
     */
    public MintRequest build() {
      return new MintRequest(this);
    }
  }
}
