package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;

/**
 * Reads and writes {@link Message}: {@code {id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt,
 * editedAt?, deletedAt?, reactions}}. Unknown fields are skipped; a missing or null {@code rev} reads as 0 (a
 * service older than revisions), missing or null {@code reactions} as none. The rest is checked strictly, for
 * a message is what the client promises to deliver once: ids non-empty strings, {@code seq} from 1,
 * {@code parts} an array, timestamps ISO-8601 strings; anything else is a {@link JsonDataException}.
 */
public final class MessageJsonAdapter extends JsonAdapter<Message> {
  /** The shared instance; it is stateless. */
  public static final MessageJsonAdapter INSTANCE = new MessageJsonAdapter();

  private static final JsonReader.Options NAMES = JsonReader.Options.of("id", "roomId", "seq",
      "senderId", "parts", "clientMessageId", "createdAt", "editedAt", "deletedAt", "reactions", "rev");

  private MessageJsonAdapter() {
  }

  @Override
  public Message fromJson(JsonReader reader) throws IOException {
    Message.Builder b = Message.builder();
    boolean hasId = false;
    boolean hasRoom = false;
    boolean hasSeq = false;
    boolean hasSender = false;
    boolean hasClientId = false;
    boolean hasCreated = false;
    boolean hasParts = false;
    reader.beginObject();
    while (reader.hasNext()) {
      switch (reader.selectName(NAMES)) {
        case 0:
          b.id(Json.nextNonEmptyString(reader));
          hasId = true;
          break;
        case 1:
          b.roomId(Json.nextNonEmptyString(reader));
          hasRoom = true;
          break;
        case 2:
          b.seq(Json.nextLongAtLeast(reader, 1));
          hasSeq = true;
          break;
        case 3:
          b.senderId(Json.nextNonEmptyString(reader));
          hasSender = true;
          break;
        case 4:
          if (reader.peek() != JsonReader.Token.BEGIN_ARRAY) {
            throw new JsonDataException("parts is not an array at " + reader.getPath());
          }
          b.parts(Json.nextList(reader, MessagePartJsonAdapter.INSTANCE));
          hasParts = true;
          break;
        case 5:
          b.clientMessageId(Json.nextNonEmptyString(reader));
          hasClientId = true;
          break;
        case 6:
          b.createdAt(Json.nextIsoTimestamp(reader));
          hasCreated = true;
          break;
        case 7:
          b.editedAt(reader.peek() == JsonReader.Token.NULL ? reader.<Long>nextNull() : Json.nextIsoTimestamp(reader));
          break;
        case 8:
          b.deletedAt(reader.peek() == JsonReader.Token.NULL ? reader.<Long>nextNull() : Json.nextIsoTimestamp(reader));
          break;
        case 9:
          readReactions(reader, b);
          break;
        case 10:
          if (reader.peek() == JsonReader.Token.NULL) {
            reader.nextNull();
          } else {
            b.rev(Json.nextLongAtLeast(reader, 0));
          }
          break;
        default:
          reader.skipName();
          reader.skipValue();
      }
    }
    reader.endObject();
    if (!hasId || !hasRoom || !hasSeq || !hasSender || !hasClientId || !hasCreated || !hasParts) {
      throw new JsonDataException("message without id, roomId, seq, senderId, parts, clientMessageId or createdAt"
          + " at " + reader.getPath());
    }
    return b.build();
  }

  private static void readReactions(JsonReader reader, Message.Builder b) throws IOException {
    if (reader.peek() == JsonReader.Token.NULL) {
      reader.nextNull();
      return;
    }
    if (reader.peek() != JsonReader.Token.BEGIN_OBJECT) {
      throw new JsonDataException("reactions is not an object at " + reader.getPath());
    }
    reader.beginObject();
    while (reader.hasNext()) {
      String emoji = reader.nextName();
      b.reaction(emoji, Json.nextStringList(reader));
    }
    reader.endObject();
  }

  @Override
  public void toJson(JsonWriter writer, Message m) throws IOException {
    writer.beginObject();
    writer.name("id").value(m.id());
    writer.name("roomId").value(m.roomId());
    writer.name("seq").value(m.seq());
    writer.name("rev").value(m.rev());
    writer.name("senderId").value(m.senderId());
    writer.name("parts").beginArray();
    for (MessagePart p : m.parts()) MessagePartJsonAdapter.INSTANCE.toJson(writer, p);
    writer.endArray();
    writer.name("clientMessageId").value(m.clientMessageId());
    writer.name("createdAt").value(IsoTimestamps.format(m.createdAt()));
    if (m.editedAt() != null) writer.name("editedAt").value(IsoTimestamps.format(m.editedAt()));
    if (m.deletedAt() != null) writer.name("deletedAt").value(IsoTimestamps.format(m.deletedAt()));
    writer.name("reactions").beginObject();
    for (Map.Entry<String, List<String>> e : m.reactions().entrySet()) {
      writer.name(e.getKey()).beginArray();
      for (String u : e.getValue()) writer.value(u);
      writer.endArray();
    }
    writer.endObject();
    writer.endObject();
  }
}
