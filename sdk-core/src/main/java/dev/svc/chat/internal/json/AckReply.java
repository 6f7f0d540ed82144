package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;

/**
 * The gateway's acknowledgement of an emitted event: {@code [{"ok": true, ...}]} or
 * {@code [{"ok": false, "error": {code, message}}]}. Other fields stay raw JSON for the caller to decode.
 */
public final class AckReply {
  /** Whether the gateway did what was asked. */
  public final boolean ok;
  /** Why not, when {@link #ok} is false; otherwise null. */
  public final ServiceError error;
  private final Map<String, String> fields;

  private AckReply(boolean ok, ServiceError error, Map<String, String> fields) {
    this.ok = ok;
    this.error = error;
    this.fields = fields;
  }

  /** Returns the raw JSON of a field of the reply object, or null. */
  public String field(String name) {
    return fields.get(name);
  }

  /**
   * Parses the ACK packet's argument array.
   *
   * @throws JsonDataException if it is not an array whose first item is an object
   */
  public static AckReply parse(String argsJson) {
    try (JsonReader reader = Json.reader(argsJson)) {
      reader.beginArray();
      if (!reader.hasNext()) throw new JsonDataException("empty acknowledgement");
      boolean ok = false;
      ServiceError error = null;
      Map<String, String> fields = new LinkedHashMap<>();
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        if (name.equals("ok") && reader.peek() == JsonReader.Token.BOOLEAN) {
          ok = reader.nextBoolean();
        } else if (name.equals("error") && reader.peek() == JsonReader.Token.BEGIN_OBJECT) {
          error = ServiceError.read(reader);
        } else {
          fields.put(name, RawJson.read(reader));
        }
      }
      reader.endObject();
      if (!ok && error == null) error = new ServiceError("internal", "negative acknowledgement without error");
      return new AckReply(ok, error, Collections.unmodifiableMap(fields));
    } catch (IOException e) {
      throw new JsonDataException("malformed acknowledgement: " + e.getMessage(), e);
    }
  }
}
