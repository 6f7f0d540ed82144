package dev.svc.chat;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLConnection;
import org.jspecify.annotations.Nullable;

/**
 * Where the bytes of a file to send come from: a {@link File}, or an {@link Opener} that opens the same bytes
 * again each time it is called (so that an upload cut off can be read again from where the service stopped).
 * Given to {@link MessagePart#file(FileSource)}. A file source is kept across restarts by the outbox (its path
 * is recorded with the send); an opener lives in this process only, and a send of one left at a restart fails
 * with {@link FileException.Kind#SOURCE_VANISHED}. On the JVM, a {@code java.nio.file.Path} is given as
 * {@code FileSource.of(path.toFile())}.
 */
public final class FileSource {
  /** Opens the source's bytes from the start, each time anew. */
  public interface Opener {
    /**
     * Opens the bytes from the first one; the caller closes the stream.
     *
     * @return a new stream over the same bytes as every earlier call
     * @throws IOException when the bytes cannot be read
     */
    InputStream open() throws IOException;
  }

  private final @Nullable File file;
  private final @Nullable Opener opener;
  private final long length;
  private final String name;
  private final @Nullable String contentType;

  private FileSource(Builder b) {
    this.file = b.file;
    this.opener = b.opener;
    this.length = b.length;
    this.name = b.name;
    this.contentType = b.contentType != null ? b.contentType : URLConnection.guessContentTypeFromName(b.name);
  }

  /**
   * Returns a source reading {@code file}, named after it, its content type guessed from its name.
   *
   * @param file the file; it is read when the send is attempted, not now
   * @return a new source
   */
  public static FileSource of(File file) {
    return builder(file).build();
  }

  /**
   * Returns a builder for a source reading {@code file}.
   *
   * @param file the file
   * @return a new builder, named after the file
   */
  public static Builder builder(File file) {
    if (file == null) throw new NullPointerException("file == null");
    return new Builder(file, null, -1, file.getName());
  }

  /**
   * Returns a builder for a source whose bytes {@code opener} opens, {@code length} bytes long.
   *
   * @param opener opens the bytes from the start, each time anew
   * @param length the number of bytes, at least 0
   * @return a new builder, named {@code file} until {@link Builder#name} is set
   */
  public static Builder builder(Opener opener, long length) {
    if (opener == null) throw new NullPointerException("opener == null");
    if (length < 0) throw new IllegalArgumentException("length < 0: " + length);
    return new Builder(null, opener, length, "file");
  }

  /**
   * Returns a builder for a source whose bytes {@code opener} opens, of a length not known yet: it is measured by
   * reading the bytes once when the send is attempted (on the SDK's I/O thread, never the caller's).
   *
   * @param opener opens the bytes from the start, each time anew
   * @return a new builder, named {@code file} until {@link Builder#name} is set
   */
  public static Builder builder(Opener opener) {
    if (opener == null) throw new NullPointerException("opener == null");
    return new Builder(null, opener, -1, "file");
  }

  /**
   * Returns the file read, or null for a source given as an {@link Opener}.
   *
   * @return the file, or null
   */
  public @Nullable File file() {
    return file;
  }

  /**
   * Returns the number of bytes given for an {@link Opener}; -1 for a file or an opener of unknown length, measured
   * when the send is attempted.
   *
   * @return the length, or -1
   */
  public long length() {
    return length;
  }

  /**
   * Returns the file name the service stores (1 to 255 characters, no {@code /}, {@code \} or control characters).
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * Returns the declared content type, or null when unknown (the service then stores
   * {@code application/octet-stream}).
   *
   * @return the content type, or null
   */
  public @Nullable String contentType() {
    return contentType;
  }

  /**
   * Opens the source's bytes from the start.
   *
   * @return a new stream; the caller closes it
   * @throws IOException when the bytes cannot be read
   */
  public InputStream open() throws IOException {
    if (opener != null) return opener.open();
    return new FileInputStream(file);
  }

  @Override
  public String toString() {
    return "FileSource{" + (file != null ? file.getPath() : "opener, " + length + " bytes") + ", name=" + name
        + (contentType == null ? "" : ", contentType=" + contentType) + "}";
  }

  /** Builds a {@link FileSource}. */
  public static final class Builder {
    private final @Nullable File file;
    private final @Nullable Opener opener;
    private final long length;
    private String name;
    private @Nullable String contentType;

    Builder(@Nullable File file, @Nullable Opener opener, long length, String name) {
      this.file = file;
      this.opener = opener;
      this.length = length;
      this.name = name;
    }

    /**
     * Sets the file name the service stores.
     *
     * @param name 1 to 255 characters, no {@code /}, {@code \} or control characters
     * @return this builder
     */
    public Builder name(String name) {
      if (name == null) throw new NullPointerException("name == null");
      int count = name.codePointCount(0, name.length());
      if (count < 1 || count > 255) throw new IllegalArgumentException("a file name has 1 to 255 characters: " + count);
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (c == '/' || c == '\\' || Character.isISOControl(c)) {
          throw new IllegalArgumentException("a file name holds no '/', '\\' or control characters: " + name);
        }
      }
      this.name = name;
      return this;
    }

    /**
     * Sets the declared content type, such as {@code image/png}; the service checks the four image types
     * against the bytes.
     *
     * @param contentType the content type, or null to guess it from the name
     * @return this builder
     */
    public Builder contentType(@Nullable String contentType) {
      this.contentType = contentType;
      return this;
    }

    /**
     * Returns the source.
     *
     * @return a new source
     */
    public FileSource build() {
      return new FileSource(this);
    }
  }
}
