package dev.svc.chat.internal.outbox;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.util.Inputs;
import dev.svc.chat.internal.json.IsoTimestamps;
import dev.svc.chat.internal.json.MessagePartJsonAdapter;
import dev.svc.chat.internal.json.SendLinks;
import okio.Buffer;
import okio.BufferedSource;

/**
 * The file format of an outbox entry, written and read by hand:
 * {@code {"version":1,"sequence":7,"userId":"alice","roomId":"r1","clientMessageId":"c1",
 * "createdAt":"2026-11-22T10:00:00.000Z","parts":[{"type":"text","text":"hi"}]}}, and {@code "links":
 * {"replyToId":..., "threadId":..., "mentions":[...]}} for a send that carries any. Unknown fields are skipped, so
 * a later version may add some (and an older SDK reads a send with links as a plain one).
 */
final class OutboxEntryJson {
  static final int VERSION = 1;
  private static final JsonReader.Options NAMES = JsonReader.Options.of("version", "sequence", "userId", "roomId",
      "clientMessageId", "createdAt", "parts", "links");

  private OutboxEntryJson() {
  }

  static byte[] write(OutboxEntry e) {
    Buffer buffer = new Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginObject();
      writer.name("version").value(VERSION);
      writer.name("sequence").value(e.sequence);
      writer.name("userId").value(e.senderId);
      writer.name("roomId").value(e.roomId);
      writer.name("clientMessageId").value(e.clientMessageId);
      writer.name("createdAt").value(IsoTimestamps.format(e.createdAt));
      writer.name("parts").beginArray();
      for (MessagePart p : e.parts) MessagePartJsonAdapter.INSTANCE.toJson(writer, p);
      writer.endArray();
      if (!e.links.isEmpty()) {
        writer.name("links").beginObject();
        e.links.write(writer);
        writer.endObject();
      }
      writer.endObject();
    } catch (IOException ex) {
      throw new AssertionError(ex); // a Buffer does no I/O
    }
    return buffer.readByteArray();
  }

  /**
   * Reads an entry (without a future: nobody waits for a loaded send).
   *
   * @throws IOException if the JSON is malformed or the source fails
   * @throws JsonDataException if a field is missing or of the wrong type
   * @throws IllegalArgumentException if a field has an invalid value
   */
  static OutboxEntry read(BufferedSource source, long enqueuedAtMillis) throws IOException {
    JsonReader reader = JsonReader.of(source);
    Long version = null;
    Long sequence = null;
    String userId = null;
    String roomId = null;
    String clientMessageId = null;
    Long createdAt = null;
    List<MessagePart> parts = null;
    SendLinks links = SendLinks.NONE;
    reader.beginObject();
    while (reader.hasNext()) {
      switch (reader.selectName(NAMES)) {
        case 0:
          version = reader.nextLong();
          break;
        case 1:
          sequence = reader.nextLong();
          break;
        case 2:
          userId = reader.nextString();
          break;
        case 3:
          roomId = reader.nextString();
          break;
        case 4:
          clientMessageId = reader.nextString();
          break;
        case 5:
          createdAt = IsoTimestamps.parse(reader.nextString());
          break;
        case 6:
          parts = new ArrayList<>();
          reader.beginArray();
          while (reader.hasNext()) parts.add(MessagePartJsonAdapter.INSTANCE.fromJson(reader));
          reader.endArray();
          break;
        case 7:
          links = SendLinks.read(reader);
          break;
        default:
          reader.skipName();
          reader.skipValue();
      }
    }
    reader.endObject();
    if (reader.peek() != JsonReader.Token.END_DOCUMENT) throw new JsonDataException("data after the entry");
    if (version == null || version != VERSION) throw new JsonDataException("unknown version " + version);
    if (sequence == null || sequence < 1) throw new JsonDataException("missing or invalid sequence");
    if (createdAt == null) throw new JsonDataException("missing createdAt");
    Inputs.userId(require(userId, "userId"));
    Inputs.roomId(require(roomId, "roomId"));
    Inputs.clientMessageId(require(clientMessageId, "clientMessageId"));
    Inputs.parts(require(parts, "parts"));
    OutboxEntry e = new OutboxEntry(roomId, parts, links, clientMessageId, userId, createdAt, null,
        enqueuedAtMillis);
    e.sequence = sequence;
    return e;
  }

  private static <T> T require(T value, String name) {
    if (value == null) throw new JsonDataException("missing " + name);
    return value;
  }
}
