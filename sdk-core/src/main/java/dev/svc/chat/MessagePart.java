package dev.svc.chat;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.svc.chat.internal.json.FileParts;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.json.RawJson;
import org.jspecify.annotations.Nullable;

/**
 * One part of a {@link Message}. The service defines the {@code text} type; parts of other types (sent by
 * newer clients) are kept as they were given: their fields other than {@code type} and {@code text} are
 * available as raw JSON through {@link #rawFields()} and are written back unchanged. A {@code file} part
 * (contract section 9) is read typed through {@link #file()}; one made with {@link #file(FileSource)} is uploaded
 * by the outbox before its message is sent.
 */
public final class MessagePart {
  /** The type of a plain text part. */
  public static final String TYPE_TEXT = "text";
  /** The type of a file part. */
  public static final String TYPE_FILE = "file";
  /**
   * The raw field in which the outbox keeps a file part's upload (its source and the upload's state) until the
   * file is complete; it is never sent to the service.
   */
  public static final String UPLOAD_FIELD = "upload";

  private final String type;
  private final @Nullable String text;
  private final Map<String, String> rawFields;
  private final @Nullable FileSource upload;

  private MessagePart(Builder builder) {
    this.type = builder.type;
    this.text = builder.text;
    this.upload = builder.upload;
    this.rawFields = builder.rawFields == null || builder.rawFields.isEmpty() ? Collections.<String, String>emptyMap()
        : Collections.unmodifiableMap(new LinkedHashMap<>(builder.rawFields));
  }

  /**
   * Returns a text part.
   *
   * @param text the text; the service accepts up to 4,000 characters
   * @return a part of type {@code text}
   */
  public static MessagePart text(String text) {
    if (text == null) throw new NullPointerException("text == null");
    return new Builder(TYPE_TEXT).text(text).build();
  }

  /**
   * Returns a file part to upload: sent through {@link ChatClient#sendMessage}, the outbox uploads the bytes
   * (resumably, across cuts and, for a {@link FileSource#file() file}, restarts) and then sends the message with
   * the part the service makes of the file. Until then the part holds the file's {@code name} and
   * {@code contentType} and an {@value #UPLOAD_FIELD} field, so that a pending message can show it.
   *
   * @param source the bytes, their name and content type
   * @return a part of type {@code file}
   */
  public static MessagePart file(FileSource source) {
    if (source == null) throw new NullPointerException("source == null");
    Builder b = new Builder(TYPE_FILE).upload(source).rawField("name", Json.string(source.name()));
    if (source.contentType() != null) b.rawField("contentType", Json.string(source.contentType()));
    String state = source.file() != null ? "{\"file\":" + Json.string(source.file().getAbsolutePath()) + "}"
        : "{\"length\":" + source.length() + "}";
    return b.rawField(UPLOAD_FIELD, state).build();
  }

  /**
   * Returns a file part referring to a file already uploaded by this user ({@code {"type":"file","fileId":...}}).
   *
   * @param fileId the file's id
   * @return a part of type {@code file}
   */
  public static MessagePart fileId(String fileId) {
    if (fileId == null) throw new NullPointerException("fileId == null");
    if (fileId.isEmpty()) throw new IllegalArgumentException("fileId is empty");
    return new Builder(TYPE_FILE).rawField("fileId", Json.string(fileId)).build();
  }

  /**
   * Returns a builder for a part of the given type.
   *
   * @param type the part type, such as {@code text}
   * @return a new builder
   */
  public static Builder builder(String type) {
    return new Builder(type);
  }

  /**
   * Returns the part type, such as {@code text}.
   *
   * @return the type
   */
  public String type() {
    return type;
  }

  /**
   * Returns the part's {@code text} field: the text of a text part.
   *
   * @return the text, or null when the part has none
   */
  public @Nullable String text() {
    return text;
  }

  /**
   * Returns whether this is a text part.
   *
   * @return true when {@link #type()} is {@code text}
   */
  public boolean isText() {
    return TYPE_TEXT.equals(type);
  }

  /**
   * Returns whether this is a file part.
   *
   * @return true when {@link #type()} is {@code file}
   */
  public boolean isFile() {
    return TYPE_FILE.equals(type);
  }

  /**
   * Returns the file of a file part as the service stored it (name, content type, size, sha256, and for images
   * width and height).
   *
   * @return the file, or null for another part or a file part not uploaded yet
   */
  public @Nullable FileAttachment file() {
    return FileParts.attachment(this);
  }

  /**
   * Returns the source of a file part made with {@link #file(FileSource)} in this process.
   *
   * @return the source, or null (another part, or one read back from the outbox after a restart)
   */
  public @Nullable FileSource upload() {
    return upload;
  }

  /**
   * Returns the part's other fields, by name, each as the raw JSON text of its value, in the order given.
   * Text parts from the service have none.
   *
   * @return an unmodifiable map of field name to raw JSON
   */
  public Map<String, String> rawFields() {
    return rawFields;
  }

  /**
   * Returns a builder initialised with this part's fields.
   *
   * @return a new builder
   */
  public Builder newBuilder() {
    Builder b = new Builder(type);
    b.text = text;
    b.upload = upload;
    if (!rawFields.isEmpty()) b.rawFields().putAll(rawFields);
    return b;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof MessagePart)) return false;
    MessagePart that = (MessagePart) o;
    return type.equals(that.type) && (text == null ? that.text == null : text.equals(that.text))
        && rawFields.equals(that.rawFields);
  }

  @Override
  public int hashCode() {
    int h = type.hashCode();
    h = 31 * h + (text == null ? 0 : text.hashCode());
    return 31 * h + rawFields.hashCode();
  }

  @Override
  public String toString() {
    return "MessagePart{type=" + type + (text == null ? "" : ", text=" + text)
        + (rawFields.isEmpty() ? "" : ", rawFields=" + rawFields) + "}";
  }

  /** Builds a {@link MessagePart}. */
  public static final class Builder {
    private final String type;
    private @Nullable String text;
    private @Nullable FileSource upload;
    /** Made on the first raw field: most parts have none. */
    private @Nullable Map<String, String> rawFields;

    Builder(String type) {
      if (type == null) throw new NullPointerException("type == null");
      if (type.isEmpty()) throw new IllegalArgumentException("type is empty");
      this.type = type;
    }

    /**
     * Sets the part's {@code text} field.
     *
     * @param text the text, or null for none
     * @return this builder
     */
    public Builder text(@Nullable String text) {
      this.text = text;
      return this;
    }

    /**
     * Sets the source of a file part to upload (see {@link MessagePart#file(FileSource)}); it is not part of
     * {@link MessagePart#equals}.
     *
     * @param upload the source, or null for none
     * @return this builder
     */
    public Builder upload(@Nullable FileSource upload) {
      this.upload = upload;
      return this;
    }

    /**
     * Removes a field set with {@link #rawField}.
     *
     * @param name the field name
     * @return this builder
     */
    public Builder removeRawField(String name) {
      if (rawFields != null) rawFields.remove(name);
      return this;
    }

    /**
     * Sets another field of the part, given as raw JSON, such as {@code "\"https://x/y.png\""} or
     * {@code 42}.
     *
     * @param name the field name; not {@code type} or {@code text}
     * @param rawJson the field's value as JSON text
     * @return this builder
     * @throws IllegalArgumentException if {@code rawJson} is not exactly one JSON value
     */
    public Builder rawField(String name, String rawJson) {
      if (name == null) throw new NullPointerException("name == null");
      if (rawJson == null) throw new NullPointerException("rawJson == null");
      if (name.equals("type") || name.equals("text")) {
        throw new IllegalArgumentException("use the builder's own setters for " + name);
      }
      RawJson.requireValid(rawJson);
      rawFields().put(name, rawJson);
      return this;
    }

    /**
     * Returns the part.
     *
     * @return a new immutable part
     */
    public MessagePart build() {
      return new MessagePart(this);
    }

    private Map<String, String> rawFields() {
      if (rawFields == null) rawFields = new LinkedHashMap<>();
      return rawFields;
    }
  }
}
