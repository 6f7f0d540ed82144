package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

class ReconnectPolicyTest {
  @Test
  void ceilingDoublesFromTheBaseUpToTheCap() {
    ReconnectPolicy p = new ReconnectPolicy(500, 30_000, new Random(1));
    assertEquals(500, p.ceilingMillis(0));
    assertEquals(1_000, p.ceilingMillis(1));
    assertEquals(16_000, p.ceilingMillis(5));
    assertEquals(30_000, p.ceilingMillis(6));
    assertEquals(30_000, p.ceilingMillis(10_000));
  }

  @Test
  void delaysAreFullJitterWithinTheCeiling() {
    ReconnectPolicy p = new ReconnectPolicy(500, 30_000, new Random(7));
    long min = Long.MAX_VALUE;
    long max = 0;
    for (int i = 0; i < 2_000; i++) {
      long d = p.delayMillis(3);
      assertTrue(d >= 0 && d <= 4_000, "delay " + d);
      min = Math.min(min, d);
      max = Math.max(max, d);
    }
    assertTrue(min < 400 && max > 3_600, "spread " + min + ".." + max);
  }

  @Test
  void delaysComeFromTheInjectedRandom() {
    Random fixed = new Random() {
      @Override
      public double nextDouble() {
        return 0.5;
      }
    };
    assertEquals(250, new ReconnectPolicy(500, 30_000, fixed).delayMillis(0));
    assertEquals(15_000, new ReconnectPolicy(500, 30_000, fixed).delayMillis(20));
  }
}
