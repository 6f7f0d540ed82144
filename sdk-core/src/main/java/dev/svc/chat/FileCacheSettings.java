package dev.svc.chat;

import java.io.File;
import org.jspecify.annotations.Nullable;

/**
 * Where a client keeps the thumbnails it fetched ({@link ChatFiles#thumbnail}), and how much: a directory private
 * to the app (beside the offline store; on Android under {@code Context.getCacheDir()}), bounded in bytes; when a
 * new thumbnail would pass the bound, the least recently used ones are deleted first. Set with
 * {@link SvcOptions.Builder#fileCache}; without it thumbnails are fetched each time.
 */
public final class FileCacheSettings {
  /** The default bound: 32 MiB, some hundreds of thumbnails of the default size. */
  public static final long DEFAULT_MAX_BYTES = 32L * 1024 * 1024;

  private final File directory;
  private final long maxBytes;

  private FileCacheSettings(Builder b) {
    this.directory = b.directory;
    this.maxBytes = b.maxBytes;
  }

  /**
   * Returns a builder.
   *
   * @param directory the cache's directory, created if missing
   * @return a new builder with {@link #DEFAULT_MAX_BYTES}
   */
  public static Builder builder(File directory) {
    return new Builder(directory);
  }

  /**
   * Returns the cache's directory.
   *
   * @return the directory
   */
  public File directory() {
    return directory;
  }

  /**
   * Returns the most bytes the cache keeps.
   *
   * @return the bound
   */
  public long maxBytes() {
    return maxBytes;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof FileCacheSettings && ((FileCacheSettings) o).directory.equals(directory)
        && ((FileCacheSettings) o).maxBytes == maxBytes;
  }

  @Override
  public int hashCode() {
    return 31 * directory.hashCode() + (int) (maxBytes ^ (maxBytes >>> 32));
  }

  @Override
  public String toString() {
    return "FileCacheSettings{" + directory + ", maxBytes=" + maxBytes + "}";
  }

  /** Builds {@link FileCacheSettings}. */
  public static final class Builder {
    private final File directory;
    private long maxBytes = DEFAULT_MAX_BYTES;

    Builder(File directory) {
      if (directory == null) throw new NullPointerException("directory == null");
      this.directory = directory;
    }

    /**
     * Sets the most bytes the cache keeps.
     *
     * @param maxBytes at least 1
     * @return this builder
     */
    public Builder maxBytes(long maxBytes) {
      if (maxBytes < 1) throw new IllegalArgumentException("maxBytes < 1: " + maxBytes);
      this.maxBytes = maxBytes;
      return this;
    }

    /**
     * Returns the settings.
     *
     * @return new settings
     */
    public FileCacheSettings build() {
      return new FileCacheSettings(this);
    }
  }
}
