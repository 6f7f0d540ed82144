package dev.svc.chat.internal.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThumbnailCacheTest {
  @TempDir
  File dir;

  private static String k(String fileId) {
    return ThumbnailCache.key(fileId, 320);
  }

  @Test
  void theLeastRecentlyUsedThumbnailsAreEvictedPastTheBound() {
    ThumbnailCache cache = new ThumbnailCache(dir, 300);
    cache.put(k("a"), new byte[100]);
    cache.put(k("b"), new byte[100]);
    cache.put(k("c"), new byte[100]);
    assertArrayEquals(new byte[100], cache.get(k("a"))); // a is now the most recently used
    cache.put(k("d"), new byte[100]);
    assertNull(cache.get(k("b")), "the least recently used went first");
    assertEquals(300, cache.totalBytes());
    assertEquals(3, dir.listFiles().length, "its file is deleted too");
    cache.put(k("big"), new byte[250]);
    assertEquals(250, cache.totalBytes(), "as many go as the bound needs");
    assertArrayEquals(new byte[250], cache.get(k("big")));
  }

  @Test
  void aThumbnailLargerThanTheBoundIsNotKeptAndTheCacheIsReadBackByANewInstance() {
    ThumbnailCache cache = new ThumbnailCache(dir, 300);
    cache.put(k("a"), new byte[]{1, 2, 3});
    cache.put(k("huge"), new byte[301]);
    assertNull(cache.get(k("huge")));
    ThumbnailCache again = new ThumbnailCache(dir, 300);
    assertArrayEquals(new byte[]{1, 2, 3}, again.get(k("a")));
    assertEquals(3, again.totalBytes());
  }
}
