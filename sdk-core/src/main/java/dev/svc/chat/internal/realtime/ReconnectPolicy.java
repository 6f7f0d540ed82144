package dev.svc.chat.internal.realtime;

import java.util.Random;

/**
 * Exponential backoff with full jitter: before attempt {@code n} (from 0) wait a uniformly random time in
 * {@code [0, min(max, base * 2^n)]}, so a crowd of clients dropped together does not come back together.
 */
public final class ReconnectPolicy {
  private final long baseMillis;
  private final long maxMillis;
  private final Random random;

  private static ReconnectPolicy latest;

  /**
   * Returns a policy with these bounds and source: the one returned before when they are the same (it holds no
   * state but its thread-safe source), so that the clients of a fleet share one.
   */
  public static synchronized ReconnectPolicy of(long baseMillis, long maxMillis, Random random) {
    ReconnectPolicy p = latest;
    if (p == null || p.baseMillis != baseMillis || p.maxMillis != maxMillis || p.random != random) {
      p = new ReconnectPolicy(baseMillis, maxMillis, random);
      latest = p;
    }
    return p;
  }

  public ReconnectPolicy(long baseMillis, long maxMillis, Random random) {
    if (baseMillis < 1 || maxMillis < baseMillis) throw new IllegalArgumentException("bad backoff bounds");
    this.baseMillis = baseMillis;
    this.maxMillis = maxMillis;
    this.random = random;
  }

  /** Returns the upper bound of the delay before attempt {@code attempt}. */
  public long ceilingMillis(int attempt) {
    long ceiling = baseMillis;
    for (int i = 0; i < attempt && ceiling < maxMillis; i++) ceiling *= 2;
    return Math.min(ceiling, maxMillis);
  }

  /** Returns the delay before attempt {@code attempt}, drawn from the injected {@link Random}. */
  public long delayMillis(int attempt) {
    return (long) (random.nextDouble() * (ceilingMillis(attempt) + 1));
  }
}
