package dev.svc.chat.internal.files;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import okio.ByteString;

/**
 * The thumbnails a client fetched, on disk in one directory, at most {@code maxBytes} in all: a thumbnail past the
 * bound evicts the least recently used ones first. Use order is kept in memory (read from the files' modification
 * times when the cache is first used, and written back to them on use, so it survives a restart roughly). Files
 * are written to a temporary name then renamed, so a reader never sees half a thumbnail. Thread-safe.
 */
final class ThumbnailCache {
  private static final String SUFFIX = ".thumb";

  private final File directory;
  private final long maxBytes;
  /** Name to size, least recently used first; null until loaded. */
  private LinkedHashMap<String, Long> entries;
  private long total;

  ThumbnailCache(File directory, long maxBytes) {
    this.directory = directory;
    this.maxBytes = maxBytes;
  }

  /** Returns the name of the thumbnail of {@code fileId} at {@code size}. */
  static String key(String fileId, int size) {
    return ByteString.encodeUtf8(fileId).sha256().hex().substring(0, 40) + "-" + size + SUFFIX;
  }

  /** Returns the cached bytes, or null. */
  synchronized byte[] get(String key) {
    load();
    if (entries.get(key) == null) return null;
    File f = new File(directory, key);
    try (InputStream in = new FileInputStream(f)) {
      byte[] bytes = new byte[(int) f.length()];
      int read = 0;
      for (int n; read < bytes.length && (n = in.read(bytes, read, bytes.length - read)) >= 0; ) read += n;
      if (read != bytes.length) return null;
      f.setLastModified(System.currentTimeMillis());
      return bytes;
    } catch (IOException e) {
      forget(key);
      return null;
    }
  }

  /** Keeps {@code bytes} under {@code key}, evicting the least recently used past the bound; I/O errors skip it. */
  synchronized void put(String key, byte[] bytes) {
    load();
    if (bytes.length > maxBytes) return;
    forget(key);
    File temp = new File(directory, key + ".tmp");
    try {
      if (!directory.isDirectory() && !directory.mkdirs()) return;
      try (FileOutputStream out = new FileOutputStream(temp)) {
        out.write(bytes);
      }
      if (!temp.renameTo(new File(directory, key))) return;
    } catch (IOException e) {
      temp.delete();
      return;
    }
    entries.put(key, (long) bytes.length);
    total += bytes.length;
    for (Iterator<Map.Entry<String, Long>> it = entries.entrySet().iterator(); total > maxBytes && it.hasNext(); ) {
      Map.Entry<String, Long> oldest = it.next();
      if (oldest.getKey().equals(key)) continue;
      new File(directory, oldest.getKey()).delete();
      total -= oldest.getValue();
      it.remove();
    }
  }

  /** Returns the bytes held (tests). */
  synchronized long totalBytes() {
    load();
    return total;
  }

  private void forget(String key) {
    Long size = entries.remove(key);
    if (size != null) {
      total -= size;
      new File(directory, key).delete();
    }
  }

  private void load() {
    if (entries != null) return;
    entries = new LinkedHashMap<>(16, 0.75f, true);
    File[] files = directory.listFiles();
    if (files == null) return;
    List<File> kept = new ArrayList<>();
    for (File f : files) {
      if (f.getName().endsWith(SUFFIX)) kept.add(f);
      if (f.getName().endsWith(SUFFIX + ".tmp")) f.delete(); // a write cut by the process's end
    }
    File[] sorted = kept.toArray(new File[0]);
    Arrays.sort(sorted, (a, b) -> Long.compare(a.lastModified(), b.lastModified()));
    for (File f : sorted) {
      entries.put(f.getName(), f.length());
      total += f.length();
    }
  }
}
