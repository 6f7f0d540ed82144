package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.Message;
import dev.svc.chat.MessageLinks;
import dev.svc.chat.MessagePart;
import dev.svc.chat.ThreadSummary;

/**
 * Reads and writes {@link Message}: {@code {id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt,
 * editedAt?, deletedAt?, reactions, replyToId?, threadId?, mentions?, thread?}} (contract sections 4 and 10).
 * Unknown fields are skipped; a missing or null {@code rev} reads as 0 (a service older than revisions), missing
 * or null {@code reactions} and {@code mentions} as none, a missing or null {@code replyToId}, {@code threadId}
 * or {@code thread} as none. The rest is checked strictly, for
 * a message is what the client promises to deliver once: ids non-empty strings, {@code seq} from 1,
 * {@code parts} an array, timestamps ISO-8601 strings; anything else is a {@link JsonDataException}.
 */
public final class MessageJsonAdapter extends JsonAdapter<Message> {
  /** The shared instance; it is stateless. */
  public static final MessageJsonAdapter INSTANCE = new MessageJsonAdapter();

  private static final JsonReader.Options NAMES = JsonReader.Options.of("id", "roomId", "seq",
      "senderId", "parts", "clientMessageId", "createdAt", "editedAt", "deletedAt", "reactions", "rev",
      "replyToId", "threadId", "thread", "mentions");
  private static final JsonReader.Options THREAD_NAMES = JsonReader.Options.of("replyCount", "lastReplyAt",
      "participantIds");

  private MessageJsonAdapter() {
  }

  @Override
  public Message fromJson(JsonReader reader) throws IOException {
    Message.Builder b = Message.builder();
    MessageLinks.Builder links = MessageLinks.builder();
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
        case 11:
          links.replyToId(nextIdOrNull(reader));
          break;
        case 12:
          links.threadId(nextIdOrNull(reader));
          break;
        case 13:
          links.thread(readThread(reader));
          break;
        case 14:
          links.mentions(Json.nextStringList(reader));
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
    return b.links(links.build()).build();
  }

  private static String nextIdOrNull(JsonReader reader) throws IOException {
    if (reader.peek() == JsonReader.Token.NULL) return reader.nextNull();
    return Json.nextNonEmptyString(reader);
  }

  /** Reads {@code {replyCount, lastReplyAt, participantIds}}, or null; a count below 0 is refused. */
  static ThreadSummary readThread(JsonReader reader) throws IOException {
    if (reader.peek() == JsonReader.Token.NULL) return reader.nextNull();
    if (reader.peek() != JsonReader.Token.BEGIN_OBJECT) {
      throw new JsonDataException("thread is not an object at " + reader.getPath());
    }
    long count = -1;
    Long last = null;
    List<String> participants = java.util.Collections.emptyList();
    reader.beginObject();
    while (reader.hasNext()) {
      switch (reader.selectName(THREAD_NAMES)) {
        case 0:
          count = Json.nextLongAtLeast(reader, 0);
          break;
        case 1:
          last = Json.nextTimestampOrNull(reader);
          break;
        case 2:
          participants = Json.nextStringList(reader);
          break;
        default:
          reader.skipName();
          reader.skipValue();
      }
    }
    reader.endObject();
    if (count < 0 || count > Integer.MAX_VALUE) {
      throw new JsonDataException("thread without a replyCount at " + reader.getPath());
    }
    return ThreadSummary.of((int) count, last, participants);
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
    // the section 10 fields only when set: most messages have none, and a stored row stays as short as before
    if (m.replyToId() != null) writer.name("replyToId").value(m.replyToId());
    if (m.threadId() != null) writer.name("threadId").value(m.threadId());
    if (!m.mentions().isEmpty()) {
      writer.name("mentions").beginArray();
      for (String u : m.mentions()) writer.value(u);
      writer.endArray();
    }
    ThreadSummary t = m.thread();
    if (t != null) {
      writer.name("thread").beginObject().name("replyCount").value(t.replyCount()).name("lastReplyAt");
      if (t.lastReplyAt() == null) {
        writer.nullValue();
      } else {
        writer.value(IsoTimestamps.format(t.lastReplyAt()));
      }
      writer.name("participantIds").beginArray();
      for (String p : t.participantIds()) writer.value(p);
      writer.endArray().endObject();
    }
    writer.endObject();
  }
}
