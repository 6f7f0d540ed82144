package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import okio.Buffer;

/** Small reading and writing steps shared by the hand-written adapters. */
public final class Json {
  private Json() {
  }

  /**
   * Returns a reader over {@code json}. Close it (try-with-resources): closing empties its buffer, which hands the
   * buffer's segment back to Okio's pool on this thread; a reader dropped before the end of its text keeps its
   * 8 KiB segment out of the pool, and the next reader or writer allocates a new one.
   */
  public static JsonReader reader(String json) {
    return JsonReader.of(new Buffer().writeUtf8(json));
  }

  /** Returns the next string, or null for a JSON null. */
  static String nextStringOrNull(JsonReader reader) throws IOException {
    if (reader.peek() == JsonReader.Token.NULL) return reader.nextNull();
    return reader.nextString();
  }

  /** Returns the next string, failing on null. */
  static String nextString(JsonReader reader) throws IOException {
    if (reader.peek() == JsonReader.Token.NULL) {
      throw new JsonDataException("expected a string but was null at " + reader.getPath());
    }
    return reader.nextString();
  }

  /**
   * Returns the next timestamp as epoch millis (an ISO-8601 string, or a number of milliseconds), or null for
   * a JSON null. Either way it must lie in the years 0000 to 9999, which the ISO form can spell.
   */
  static Long nextTimestampOrNull(JsonReader reader) throws IOException {
    if (reader.peek() == JsonReader.Token.NULL) return reader.nextNull();
    if (reader.peek() == JsonReader.Token.NUMBER) {
      long millis = reader.nextLong();
      if (!IsoTimestamps.inRange(millis)) {
        throw new JsonDataException("timestamp beyond the years 0000 to 9999 at " + reader.getPath());
      }
      return millis;
    }
    String text = reader.nextString();
    try {
      return IsoTimestamps.parse(text);
    } catch (IllegalArgumentException e) {
      throw new JsonDataException(e.getMessage() + " at " + reader.getPath());
    }
  }

  /** Returns the next value, which must be a non-empty string. */
  static String nextNonEmptyString(JsonReader reader) throws IOException {
    if (reader.peek() != JsonReader.Token.STRING) {
      throw new JsonDataException("expected a string but was " + reader.peek() + " at " + reader.getPath());
    }
    String s = reader.nextString();
    if (s.isEmpty()) throw new JsonDataException("empty string at " + reader.getPath());
    return s;
  }

  /** Returns the next value, which must be an integer of at least {@code min}. */
  static long nextLongAtLeast(JsonReader reader, long min) throws IOException {
    if (reader.peek() != JsonReader.Token.NUMBER) {
      throw new JsonDataException("expected a number but was " + reader.peek() + " at " + reader.getPath());
    }
    long value = reader.nextLong();
    if (value < min) throw new JsonDataException(value + " is below " + min + " at " + reader.getPath());
    return value;
  }

  /** Returns the next value, which must be an ISO-8601 timestamp string, in epoch milliseconds. */
  static long nextIsoTimestamp(JsonReader reader) throws IOException {
    if (reader.peek() != JsonReader.Token.STRING) {
      throw new JsonDataException("expected a timestamp string but was " + reader.peek() + " at " + reader.getPath());
    }
    Long value = nextTimestampOrNull(reader);
    return value;
  }

  /** Returns the next array of strings; null reads as an empty list. */
  static List<String> nextStringList(JsonReader reader) throws IOException {
    List<String> list = new ArrayList<>();
    if (reader.peek() == JsonReader.Token.NULL) {
      reader.nextNull();
      return list;
    }
    reader.beginArray();
    while (reader.hasNext()) list.add(nextString(reader));
    reader.endArray();
    return list;
  }

  /** Returns the next array read with {@code adapter}; null reads as an empty list. */
  static <T> List<T> nextList(JsonReader reader, JsonAdapter<T> adapter) throws IOException {
    List<T> list = new ArrayList<>();
    if (reader.peek() == JsonReader.Token.NULL) {
      reader.nextNull();
      return list;
    }
    reader.beginArray();
    while (reader.hasNext()) list.add(adapter.fromJson(reader));
    reader.endArray();
    return list;
  }

  /** Returns {@code value} written with {@code adapter} as JSON text. */
  public static <T> String write(JsonAdapter<T> adapter, T value) {
    Buffer buffer = new Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      adapter.toJson(writer, value);
    } catch (IOException e) {
      throw new AssertionError(e); // a Buffer does no I/O
    }
    return buffer.readUtf8();
  }

  /** Returns a JSON object with one string field, such as {@code {"roomId":"r1"}}. */
  public static String object(String name, String value) {
    Buffer buffer = new Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginObject().name(name).value(value).endObject();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }

  /** Returns {@code value} as a JSON string literal, quoted and escaped. */
  public static String string(String value) {
    Buffer buffer = new Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.value(value);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }
}
