package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.SendOptions;

/**
 * A send's section 10 fields, as the outbox keeps them and the send bodies (REST and socket) carry them:
 * {@code replyToId?}, {@code threadId?}, {@code mentions?}, each written only when set, so a plain send's body is
 * what it was before threads.
 */
public final class SendLinks {
  /** No reply, no thread, no mention. */
  public static final SendLinks NONE = new SendLinks(null, null, Collections.<String>emptyList());

  private static final JsonReader.Options NAMES = JsonReader.Options.of("replyToId", "threadId", "mentions");

  public final String replyToId;
  public final String threadId;
  public final List<String> mentions;

  private SendLinks(String replyToId, String threadId, List<String> mentions) {
    this.replyToId = replyToId;
    this.threadId = threadId;
    this.mentions = mentions;
  }

  /** Returns the links of {@code options} ({@link #NONE} when they set none). */
  public static SendLinks of(SendOptions options) {
    return of(options.replyToId(), options.threadId(), options.mentions());
  }

  /** Returns the links; {@link #NONE} when none is set. */
  public static SendLinks of(String replyToId, String threadId, List<String> mentions) {
    if (replyToId == null && threadId == null && mentions.isEmpty()) return NONE;
    return new SendLinks(replyToId, threadId,
        mentions.isEmpty() ? Collections.<String>emptyList() : Collections.unmodifiableList(new ArrayList<>(mentions)));
  }

  /** Returns whether none is set. */
  public boolean isEmpty() {
    return this == NONE || (replyToId == null && threadId == null && mentions.isEmpty());
  }

  /** Writes the fields that are set into the object {@code writer} is in. */
  public void write(JsonWriter writer) throws IOException {
    if (replyToId != null) writer.name("replyToId").value(replyToId);
    if (threadId != null) writer.name("threadId").value(threadId);
    if (!mentions.isEmpty()) {
      writer.name("mentions").beginArray();
      for (String u : mentions) writer.value(u);
      writer.endArray();
    }
  }

  /** Returns the bytes the fields add to a send's JSON at most (for the socket's send budget). */
  public long weight() {
    if (isEmpty()) return 0;
    long n = 40; // names, colons, commas, brackets
    if (replyToId != null) n += 6L * replyToId.length();
    if (threadId != null) n += 6L * threadId.length();
    for (String u : mentions) n += 3 + 6L * u.length();
    return n;
  }

  /**
   * Reads one of this class's fields into {@code into} when the reader is at its value: returns false (nothing
   * read) for another name. {@code into} holds replyToId, threadId, mentions.
   */
  static boolean readField(JsonReader reader, Object[] into) throws IOException {
    switch (reader.selectName(NAMES)) {
      case 0:
        into[0] = Json.nextStringOrNull(reader);
        return true;
      case 1:
        into[1] = Json.nextStringOrNull(reader);
        return true;
      case 2:
        into[2] = Json.nextStringList(reader);
        return true;
      default:
        return false;
    }
  }

  /** Reads the object of a stored send's links ({@code null}: none). */
  public static SendLinks read(JsonReader reader) throws IOException {
    if (reader.peek() == JsonReader.Token.NULL) {
      reader.nextNull();
      return NONE;
    }
    if (reader.peek() != JsonReader.Token.BEGIN_OBJECT) throw new JsonDataException("links is not an object");
    Object[] fields = new Object[3];
    reader.beginObject();
    while (reader.hasNext()) {
      if (!readField(reader, fields)) {
        reader.skipName();
        reader.skipValue();
      }
    }
    reader.endObject();
    @SuppressWarnings("unchecked")
    List<String> mentions = fields[2] == null ? Collections.<String>emptyList() : (List<String>) fields[2];
    return of((String) fields[0], (String) fields[1], mentions);
  }

  /** Returns the links as a JSON object, or null for none (a stored send's column). */
  public String toJsonOrNull() {
    if (isEmpty()) return null;
    okio.Buffer buffer = new okio.Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginObject();
      write(writer);
      writer.endObject();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }

  /** Reads {@link #toJsonOrNull}'s text (null: none). */
  public static SendLinks fromJson(String json) {
    if (json == null) return NONE;
    try {
      return read(Json.reader(json));
    } catch (IOException e) {
      throw new JsonDataException("malformed links: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SendLinks)) return false;
    SendLinks l = (SendLinks) o;
    return (replyToId == null ? l.replyToId == null : replyToId.equals(l.replyToId))
        && (threadId == null ? l.threadId == null : threadId.equals(l.threadId)) && mentions.equals(l.mentions);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (replyToId == null ? 0 : replyToId.hashCode()) + (threadId == null ? 0 : threadId.hashCode()))
        + mentions.hashCode();
  }

  @Override
  public String toString() {
    return "SendLinks{replyToId=" + replyToId + ", threadId=" + threadId + ", mentions=" + mentions + "}";
  }
}
