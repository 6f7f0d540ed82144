package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.List;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.ApiException;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;

/**
 * The {@code send-message} event of the socket-sends extension: its payload {@code {roomId, parts,
 * clientMessageId, senderId}} (the sender as REST sends it, so a token of another user is refused), and its acknowledgement {@code [{"ok": true, "message": {...}}]} or
 * {@code [{"ok": false, "error": {code, message, retryAfter?}}]}, read in one pass.
 */
public final class SendAck {
  private static final JsonReader.Options ACK_NAMES = JsonReader.Options.of("ok", "message", "error");
  private static final JsonReader.Options ERROR_NAMES = JsonReader.Options.of("code", "message", "retryAfter");

  private SendAck() {
  }

  /** Returns the event's payload. */
  public static String payload(String roomId, List<MessagePart> parts, String clientMessageId, String senderId) {
    return payload(roomId, parts, SendLinks.NONE, clientMessageId, senderId);
  }

  /** Returns the event's payload with the send's section 10 fields. */
  public static String payload(String roomId, List<MessagePart> parts, SendLinks links, String clientMessageId,
      String senderId) {
    okio.Buffer buffer = new okio.Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginObject().name("roomId").value(roomId).name("parts").beginArray();
      for (MessagePart p : parts) MessagePartJsonAdapter.INSTANCE.toJson(writer, p);
      writer.endArray().name("clientMessageId").value(clientMessageId).name("senderId").value(senderId);
      links.write(writer);
      writer.endObject();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }

  /**
   * Returns the stored message of a positive acknowledgement (its raw argument array); throws the
   * {@link ApiException} REST gives for the code of a negative one (status per contract section 1, and the
   * {@code Retry-After} of REST from {@code retryAfter} seconds).
   *
   * @throws JsonDataException for an acknowledgement that is neither
   */
  public static Message read(String argsJson) {
    try (JsonReader reader = Json.reader(argsJson)) {
      reader.beginArray();
      if (!reader.hasNext()) throw new JsonDataException("empty acknowledgement");
      boolean ok = false;
      Message message = null;
      ApiException error = null;
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(ACK_NAMES)) {
          case 0:
            ok = reader.peek() == JsonReader.Token.BOOLEAN && reader.nextBoolean();
            break;
          case 1:
            message = MessageJsonAdapter.INSTANCE.fromJson(reader);
            break;
          case 2:
            error = readError(reader);
            break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      if (ok && message != null) return message;
      if (ok) throw new JsonDataException("a send-message acknowledgement without its message");
      if (error == null) error = new ApiException(500, "internal", "negative acknowledgement without error");
      throw error;
    } catch (IOException e) {
      throw new JsonDataException("malformed send-message acknowledgement: " + e.getMessage(), e);
    }
  }

  private static ApiException readError(JsonReader reader) throws IOException {
    String code = "";
    String message = "";
    long retryAfterMillis = -1;
    reader.beginObject();
    while (reader.hasNext()) {
      switch (reader.selectName(ERROR_NAMES)) {
        case 0:
          code = reader.peek() == JsonReader.Token.STRING ? reader.nextString() : skip(reader);
          break;
        case 1:
          message = reader.peek() == JsonReader.Token.STRING ? reader.nextString() : skip(reader);
          break;
        case 2:
          if (reader.peek() == JsonReader.Token.NUMBER) {
            long seconds = reader.nextLong();
            if (seconds >= 0 && seconds < Long.MAX_VALUE / 1000) retryAfterMillis = seconds * 1000;
          } else {
            reader.skipValue();
          }
          break;
        default:
          reader.skipName();
          reader.skipValue();
      }
    }
    reader.endObject();
    if (code.isEmpty()) code = "internal";
    return new ApiException(ServiceError.statusOf(code), code, ServiceError.describe(code, message), retryAfterMillis);
  }

  private static String skip(JsonReader reader) throws IOException {
    reader.skipValue();
    return "";
  }
}
