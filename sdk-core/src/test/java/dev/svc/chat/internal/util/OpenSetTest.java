package dev.svc.chat.internal.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

class OpenSetTest {
  @Test
  void addsAndRemovesFromManyThreadsAndEndsEmpty() throws Exception {
    OpenSet<Integer> set = new OpenSet<>();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        final int base = t * 10_000;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 10_000; i++) {
            assertTrue(set.add(base + i));
            if (i % 2 == 1) {
              assertTrue(set.remove(base + i - 1));
              assertTrue(set.remove(base + i));
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) f.get();
    } finally {
      pool.shutdownNow();
    }
    assertEquals(0, set.size());
    assertFalse(set.remove(1));
    assertFalse(set.iterator().hasNext());
  }

  @Test
  void iteratesOverASnapshotThatTheLoopMayEmpty() {
    OpenSet<String> set = new OpenSet<>();
    set.add("a");
    set.add("b");
    assertFalse(set.add("a"), "a set holds an element once");
    int seen = 0;
    for (String s : set) { // close() fails what it iterates, which removes it meanwhile
      assertTrue(set.remove(s));
      seen++;
    }
    assertEquals(2, seen);
    assertTrue(set.isEmpty());
    set.add("c");
    assertTrue(set.contains("c"));
    assertArrayEquals(new String[] {"c"}, set.toArray(new String[0]));
    assertEquals(new ArrayList<>(set), List.of("c"));
  }
}
