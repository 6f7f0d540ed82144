package dev.svc.chat.server;

import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import org.jspecify.annotations.Nullable;
import okio.Buffer;

/**
 * The JSON shapes of contract sections 3 and 4 this package reads and writes, written here and not taken from
 * sdk-core (whose adapters are internal to it). Readers go through Moshi's {@code readJsonValue}: unknown
 * fields are ignored; a missing required field or a value of the wrong type is an
 * {@link IllegalArgumentException} naming it, which callers turn into their own failure.
 */
final class Wire {
  /** A value {@link #body} writes as JSON {@code null} (a plain null leaves the field out). */
  static final Object JSON_NULL = new Object();

  private Wire() {
  }

  /** Returns the JSON object of {@code pairs} (name, value, ...), leaving out null values. */
  static String body(@Nullable Object... pairs) {
    Buffer buffer = new Buffer();
    try (JsonWriter w = JsonWriter.of(buffer)) {
      w.beginObject();
      for (int i = 0; i < pairs.length; i += 2) {
        Object v = pairs[i + 1];
        if (v == null) continue;
        w.name((String) pairs[i]);
        if (v == JSON_NULL) {
          w.setSerializeNulls(true);
          w.nullValue();
          w.setSerializeNulls(false);
        } else if (v instanceof List) {
          w.beginArray();
          for (Object o : (List<?>) v) w.value((String) o);
          w.endArray();
        } else if (v instanceof Boolean) {
          w.value((Boolean) v);
        } else if (v instanceof Number) {
          w.value((Number) v);
        } else {
          w.value((String) v);
        }
      }
      w.endObject();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }

  /** Reads a JSON object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(String json) {
    Object v;
    try {
      v = JsonReader.of(new Buffer().writeUtf8(json)).readJsonValue();
    } catch (IOException | JsonDataException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
    if (!(v instanceof Map)) throw new IllegalArgumentException("not a JSON object");
    return (Map<String, Object>) v;
  }

  static String string(Map<String, Object> m, String name) {
    Object v = m.get(name);
    if (!(v instanceof String) || ((String) v).isEmpty()) {
      throw new IllegalArgumentException("no " + name + " in " + m.keySet());
    }
    return (String) v;
  }

  static @Nullable String optionalString(Map<String, Object> m, String name) {
    Object v = m.get(name);
    if (v == null) return null;
    if (!(v instanceof String)) throw new IllegalArgumentException(name + " is not a string");
    return (String) v;
  }

  static long number(Map<String, Object> m, String name, long ifAbsent) {
    Object v = m.get(name);
    if (v == null) return ifAbsent;
    if (!(v instanceof Number)) throw new IllegalArgumentException(name + " is not a number");
    double d = ((Number) v).doubleValue();
    if (d != Math.rint(d)) throw new IllegalArgumentException(name + " is not an integer");
    return (long) d;
  }

  static long timestamp(Map<String, Object> m, String name) {
    return timestamp(string(m, name));
  }

  static @Nullable Long optionalTimestamp(Map<String, Object> m, String name) {
    String text = optionalString(m, name);
    return text == null ? null : timestamp(text);
  }

  /** Reads an ISO-8601 time with an offset ({@code 2026-11-21T10:00:00.000Z}) as epoch milliseconds. */
  static long timestamp(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not an ISO-8601 time: " + text, e);
    }
  }

  static List<String> strings(Map<String, Object> m, String name) {
    Object v = m.get(name);
    if (v == null) return Collections.emptyList();
    return strings(v, name);
  }

  static List<String> strings(Object v, String name) {
    if (!(v instanceof List)) throw new IllegalArgumentException(name + " is not an array");
    List<String> out = new ArrayList<>();
    for (Object o : (List<?>) v) {
      if (!(o instanceof String)) throw new IllegalArgumentException(name + " holds a non-string");
      out.add((String) o);
    }
    return Collections.unmodifiableList(out);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> nested(Object v, String name) {
    if (!(v instanceof Map)) throw new IllegalArgumentException(name + " is not an object");
    return (Map<String, Object>) v;
  }

  static ChatUser user(Map<String, Object> m) {
    return new ChatUser(string(m, "userId"), optionalString(m, "username"), timestamp(m, "createdAt"),
        timestamp(m, "updatedAt"));
  }

  static MintedToken token(Map<String, Object> m) {
    return new MintedToken(string(m, "token"), timestamp(m, "expiresAt"), string(m, "apiUrl"),
        string(m, "userId"), optionalString(m, "username"));
  }

  static TenantSettings settings(Map<String, Object> m) {
    return new TenantSettings(!Boolean.FALSE.equals(m.get("autoCreateUsers")),
        !Boolean.FALSE.equals(m.get("callsEnabled")), optionalString(m, "webhookUrl"));
  }

  static ChatRoom room(Map<String, Object> m) {
    return new ChatRoom(string(m, "id"), optionalString(m, "name"), strings(m, "memberIds"),
        timestamp(m, "createdAt"), number(m, "lastMessageSeq", 0), optionalTimestamp(m, "lastMessageAt"),
        number(m, "rev", 0));
  }

  static ChatMessage message(Map<String, Object> m) {
    Object partsValue = m.get("parts");
    if (!(partsValue instanceof List)) throw new IllegalArgumentException("parts is not an array");
    List<ChatMessage.Part> parts = new ArrayList<>();
    for (Object p : (List<?>) partsValue) {
      Map<String, Object> part = nested(p, "a part");
      parts.add(new ChatMessage.Part(string(part, "type"), optionalString(part, "text")));
    }
    Map<String, List<String>> reactions = new LinkedHashMap<>();
    Object r = m.get("reactions");
    if (r != null) {
      for (Map.Entry<String, Object> e : nested(r, "reactions").entrySet()) {
        reactions.put(e.getKey(), strings(e.getValue(), "reactions." + e.getKey()));
      }
    }
    return new ChatMessage(string(m, "id"), string(m, "roomId"), number(m, "seq", 0), number(m, "rev", 0),
        string(m, "senderId"), Collections.unmodifiableList(parts), string(m, "clientMessageId"),
        timestamp(m, "createdAt"), optionalTimestamp(m, "editedAt"), optionalTimestamp(m, "deletedAt"),
        Collections.unmodifiableMap(reactions));
  }

  static ChatCall call(Map<String, Object> m) {
    return new ChatCall(string(m, "id"), string(m, "roomId"), string(m, "kind"), string(m, "initiatorId"),
        string(m, "status"), strings(m, "participantIds"), timestamp(m, "createdAt"),
        optionalTimestamp(m, "endedAt"), optionalString(m, "endReason"));
  }
}
