package dev.svc.chat.it.faults;

import java.time.Duration;

/**
 * What {@link FaultProxy#startRandom(RandomFaults)} does: for {@code duration}, after each random gap between
 * {@code minGap} and {@code maxGap}, it rolls once: with {@code stallChance} it stalls one random connection in a
 * random direction for between {@code minStall} and {@code maxStall}; else with {@code cutAllChance} it cuts every
 * connection; else it cuts one random connection. The same seed makes the same rolls (which connections exist
 * at each roll depends on timing, so a replay is close, not identical).
 *
 * @param seed the seed of the rolls; print it to replay a run
 * @param duration how long the run lasts; it then ends every stall and stops by itself
 * @param minGap the shortest gap between two faults
 * @param maxGap the longest gap between two faults
 * @param cutAllChance the chance that a fault cuts every connection at once
 * @param stallChance the chance that a fault is a stall instead of a cut
 * @param minStall the shortest stall
 * @param maxStall the longest stall
 */
public record RandomFaults(long seed, Duration duration, Duration minGap, Duration maxGap, double cutAllChance,
    double stallChance, Duration minStall, Duration maxStall) {

  public RandomFaults {
    if (duration.isNegative()) throw new IllegalArgumentException("duration < 0");
    if (minGap.isNegative() || maxGap.compareTo(minGap) < 0 || maxGap.isZero()) {
      throw new IllegalArgumentException("need 0 <= minGap <= maxGap, maxGap > 0");
    }
    if (minStall.isNegative() || maxStall.compareTo(minStall) < 0) {
      throw new IllegalArgumentException("need 0 <= minStall <= maxStall");
    }
    if (cutAllChance < 0 || stallChance < 0 || cutAllChance + stallChance > 1) {
      throw new IllegalArgumentException("chances must be >= 0 and add up to at most 1");
    }
  }

  /**
   * The plan: a fault every 0.2 to 1.2 s for {@code duration}; 15 % stalls of 0.3 to 3 s, 10 % cuts of
   * every connection, the rest cuts of one connection.
   */
  public static RandomFaults of(long seed, Duration duration) {
    return new RandomFaults(seed, duration, Duration.ofMillis(200), Duration.ofMillis(1200), 0.10, 0.15,
        Duration.ofMillis(300), Duration.ofSeconds(3));
  }

  /** Returns this plan with other gaps. */
  public RandomFaults withGaps(Duration min, Duration max) {
    return new RandomFaults(seed, duration, min, max, cutAllChance, stallChance, minStall, maxStall);
  }

  /** Returns this plan with other stalls. */
  public RandomFaults withStalls(double chance, Duration min, Duration max) {
    return new RandomFaults(seed, duration, minGap, maxGap, cutAllChance, chance, min, max);
  }

  /** Returns this plan with another chance of cutting every connection at once. */
  public RandomFaults withCutAllChance(double chance) {
    return new RandomFaults(seed, duration, minGap, maxGap, chance, stallChance, minStall, maxStall);
  }

  @Override
  public String toString() {
    return "RandomFaults{seed=" + seed + ", duration=" + duration.toMillis() + "ms, gap=" + minGap.toMillis() + ".."
        + maxGap.toMillis() + "ms, cutAll=" + cutAllChance + ", stall=" + stallChance + " of " + minStall.toMillis()
        + ".." + maxStall.toMillis() + "ms}";
  }
}
