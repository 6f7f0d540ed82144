package dev.svc.chat.internal.json;

import java.io.IOException;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import okio.Buffer;

/** Checks and copies raw JSON values, used to keep unknown fields exactly as they were given. */
public final class RawJson {
  private RawJson() {
  }

  /**
   * Checks that {@code json} is exactly one JSON value.
   *
   * @throws IllegalArgumentException if it is not
   */
  public static void requireValid(String json) {
    try {
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(json));
      reader.skipValue();
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) {
        throw new IllegalArgumentException("more than one JSON value: " + json);
      }
    } catch (IOException | JsonDataException e) {
      throw new IllegalArgumentException("not a JSON value: " + json, e);
    }
  }

  /**
   * Reads the next value of {@code reader} as raw JSON text.
   *
   * @throws JsonEncodingException if the value is not well-formed JSON ({@link JsonReader#nextSource} only
   *     finds where a value ends, it does not check what is inside)
   */
  static String read(JsonReader reader) throws IOException {
    String json = reader.nextSource().readUtf8();
    try {
      requireValid(json);
    } catch (IllegalArgumentException e) {
      throw new JsonEncodingException("malformed JSON value at " + reader.getPath());
    }
    return json;
  }
}
