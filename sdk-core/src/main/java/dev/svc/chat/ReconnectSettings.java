package dev.svc.chat;

/**
 * How a {@link ChatClient} waits between attempts to reconnect after its connection was lost: exponential
 * backoff with full jitter. Before attempt {@code n} (from 0) the client waits a random time between 0 and
 * {@code min(maxDelayMillis, baseDelayMillis * 2^n)}, so a crowd of clients dropped together does not come back
 * together. A send waiting for a connection is retried on the same schedule.
 *
 * <p>{@link #defaults()} (0.5 s growing to 30 s) suits production: a service that restarts is not stormed.
 * {@link #development()} (0.1 s growing to 1 s) suits a laptop with a local server that restarts often: the
 * client is back within about a second of the server, instead of up to 30 s. Set it with
 * {@link SvcOptions.Builder#reconnect(ReconnectSettings)}.
 */
public final class ReconnectSettings {
  /** The default base delay: 0.5 seconds. */
  public static final long DEFAULT_BASE_DELAY_MILLIS = 500;
  /** The default largest delay: 30 seconds. */
  public static final long DEFAULT_MAX_DELAY_MILLIS = 30_000;

  private static final ReconnectSettings DEFAULTS =
      new ReconnectSettings(DEFAULT_BASE_DELAY_MILLIS, DEFAULT_MAX_DELAY_MILLIS);
  private static final ReconnectSettings DEVELOPMENT = new ReconnectSettings(100, 1_000);

  private final long baseDelayMillis;
  private final long maxDelayMillis;

  private ReconnectSettings(long baseDelayMillis, long maxDelayMillis) {
    if (baseDelayMillis < 1) throw new IllegalArgumentException("baseDelayMillis < 1: " + baseDelayMillis);
    if (maxDelayMillis < baseDelayMillis) {
      throw new IllegalArgumentException("maxDelayMillis < baseDelayMillis: " + maxDelayMillis + " < " + baseDelayMillis);
    }
    this.baseDelayMillis = baseDelayMillis;
    this.maxDelayMillis = maxDelayMillis;
  }

  /**
   * Returns the production settings, a client's default: a base of 0.5 s and delays of at most 30 s.
   *
   * @return the default settings
   */
  public static ReconnectSettings defaults() {
    return DEFAULTS;
  }

  /**
   * Returns settings for development against a local server: a base of 0.1 s and delays of at most 1 s, so a
   * client is back about a second after the server restarted. Not for production: many clients reconnecting
   * this fast load a service that is coming back.
   *
   * @return the development settings
   */
  public static ReconnectSettings development() {
    return DEVELOPMENT;
  }

  /**
   * Returns a builder starting from {@link #defaults()}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the delay bound of the first attempt, which doubles with each attempt up to {@link #maxDelayMillis()}.
   *
   * @return milliseconds, at least 1
   */
  public long baseDelayMillis() {
    return baseDelayMillis;
  }

  /**
   * Returns the largest delay between two attempts.
   *
   * @return milliseconds, at least {@link #baseDelayMillis()}
   */
  public long maxDelayMillis() {
    return maxDelayMillis;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ReconnectSettings)) return false;
    ReconnectSettings other = (ReconnectSettings) o;
    return baseDelayMillis == other.baseDelayMillis && maxDelayMillis == other.maxDelayMillis;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(baseDelayMillis) * 31 + Long.hashCode(maxDelayMillis);
  }

  @Override
  public String toString() {
    return "ReconnectSettings{baseDelayMillis=" + baseDelayMillis + ", maxDelayMillis=" + maxDelayMillis + "}";
  }

  /** Builds {@link ReconnectSettings}. */
  public static final class Builder {
    private long baseDelayMillis = DEFAULT_BASE_DELAY_MILLIS;
    private long maxDelayMillis = DEFAULT_MAX_DELAY_MILLIS;

    Builder() {}

    /**
     * Sets the delay bound of the first attempt.
     *
     * @param millis at least 1
     * @return this builder
     */
    public Builder baseDelayMillis(long millis) {
      this.baseDelayMillis = millis;
      return this;
    }

    /**
     * Sets the largest delay between two attempts.
     *
     * @param millis at least the base delay
     * @return this builder
     */
    public Builder maxDelayMillis(long millis) {
      this.maxDelayMillis = millis;
      return this;
    }

    /**
     * Returns the settings.
     *
     * @return new immutable settings
     * @throws IllegalArgumentException if the base delay is below 1 or the largest delay below the base
     */
    public ReconnectSettings build() {
      return new ReconnectSettings(baseDelayMillis, maxDelayMillis);
    }
  }
}
