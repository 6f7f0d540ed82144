package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * A file a message holds: the typed view of a {@code file} part as the service stored it (contract section 9),
 * from {@link MessagePart#file()} or {@link Message#files()}. The service measures {@link #size()},
 * {@link #sha256()} and, for images, {@link #width()} and {@link #height()} from the bytes.
 */
public final class FileAttachment {
  private final String fileId;
  private final String name;
  private final String contentType;
  private final long size;
  private final String sha256;
  private final @Nullable Integer width;
  private final @Nullable Integer height;

  private FileAttachment(Builder b) {
    this.fileId = b.fileId;
    this.name = b.name;
    this.contentType = b.contentType;
    this.size = b.size;
    this.sha256 = b.sha256;
    this.width = b.width;
    this.height = b.height;
  }

  /**
   * Returns a builder.
   *
   * @param fileId the file's id
   * @return a new builder
   */
  public static Builder builder(String fileId) {
    return new Builder(fileId);
  }

  /**
   * Returns the file's id, which {@code GET /v1/files/{fileId}} serves.
   *
   * @return the id
   */
  public String fileId() {
    return fileId;
  }

  /**
   * Returns the file name the sender gave.
   *
   * @return the name, or an empty string when the service gave none
   */
  public String name() {
    return name;
  }

  /**
   * Returns the content type as stored ({@code application/octet-stream} when unknown or contradicted by the
   * bytes).
   *
   * @return the content type
   */
  public String contentType() {
    return contentType;
  }

  /**
   * Returns the number of bytes.
   *
   * @return the size, or -1 when the service gave none
   */
  public long size() {
    return size;
  }

  /**
   * Returns the SHA-256 of the bytes, lowercase hex; downloads are checked against it.
   *
   * @return the digest, or an empty string when the service gave none
   */
  public String sha256() {
    return sha256;
  }

  /**
   * Returns the image's width in pixels.
   *
   * @return the width, or null for a file that is not an image
   */
  public @Nullable Integer width() {
    return width;
  }

  /**
   * Returns the image's height in pixels.
   *
   * @return the height, or null for a file that is not an image
   */
  public @Nullable Integer height() {
    return height;
  }

  /**
   * Returns whether the file is an image the service measured (it has a width and a height, and thumbnails).
   *
   * @return true for an image
   */
  public boolean isImage() {
    return width != null && height != null && contentType.startsWith("image/");
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof FileAttachment)) return false;
    FileAttachment f = (FileAttachment) o;
    return fileId.equals(f.fileId) && name.equals(f.name) && contentType.equals(f.contentType) && size == f.size
        && sha256.equals(f.sha256) && (width == null ? f.width == null : width.equals(f.width))
        && (height == null ? f.height == null : height.equals(f.height));
  }

  @Override
  public int hashCode() {
    int h = fileId.hashCode();
    h = 31 * h + sha256.hashCode();
    return 31 * h + (int) (size ^ (size >>> 32));
  }

  @Override
  public String toString() {
    return "FileAttachment{fileId=" + fileId + ", name=" + name + ", contentType=" + contentType + ", size=" + size
        + (width == null ? "" : ", " + width + "x" + height) + "}";
  }

  /** Builds a {@link FileAttachment}. */
  public static final class Builder {
    private final String fileId;
    private String name = "";
    private String contentType = "application/octet-stream";
    private long size = -1;
    private String sha256 = "";
    private @Nullable Integer width;
    private @Nullable Integer height;

    Builder(String fileId) {
      if (fileId == null) throw new NullPointerException("fileId == null");
      if (fileId.isEmpty()) throw new IllegalArgumentException("fileId is empty");
      this.fileId = fileId;
    }

    /**
     * Sets the file name.
     *
     * @param name the name
     * @return this builder
     */
    public Builder name(String name) {
      if (name == null) throw new NullPointerException("name == null");
      this.name = name;
      return this;
    }

    /**
     * Sets the content type.
     *
     * @param contentType the content type
     * @return this builder
     */
    public Builder contentType(String contentType) {
      if (contentType == null) throw new NullPointerException("contentType == null");
      this.contentType = contentType;
      return this;
    }

    /**
     * Sets the number of bytes.
     *
     * @param size at least 0
     * @return this builder
     */
    public Builder size(long size) {
      if (size < 0) throw new IllegalArgumentException("size < 0: " + size);
      this.size = size;
      return this;
    }

    /**
     * Sets the SHA-256 of the bytes.
     *
     * @param sha256 lowercase hex
     * @return this builder
     */
    public Builder sha256(String sha256) {
      if (sha256 == null) throw new NullPointerException("sha256 == null");
      this.sha256 = sha256;
      return this;
    }

    /**
     * Sets an image's dimensions.
     *
     * @param width the width in pixels, or null
     * @param height the height in pixels, or null
     * @return this builder
     */
    public Builder dimensions(@Nullable Integer width, @Nullable Integer height) {
      this.width = width;
      this.height = height;
      return this;
    }

    /**
     * Returns the attachment.
     *
     * @return a new immutable attachment
     */
    public FileAttachment build() {
      return new FileAttachment(this);
    }
  }
}
