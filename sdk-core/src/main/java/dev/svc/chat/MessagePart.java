package dev.svc.chat;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.svc.chat.internal.json.RawJson;
import org.jspecify.annotations.Nullable;

/**
 * One part of a {@link Message}. The service defines the {@code text} type; parts of other types (sent by
 * newer clients) are kept as they were given: their fields other than {@code type} and {@code text} are
 * available as raw JSON through {@link #rawFields()} and are written back unchanged.
 */
public final class MessagePart {
  /** The type of a plain text part. */
  public static final String TYPE_TEXT = "text";

  private final String type;
  private final @Nullable String text;
  private final Map<String, String> rawFields;

  private MessagePart(Builder builder) {
    this.type = builder.type;
    this.text = builder.text;
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
