package dev.svc.chat.internal.json;

import java.io.IOException;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.Room;

/**
 * Reads and writes {@link Room}: {@code {id, name?, memberIds, createdAt, lastMessageSeq, lastMessageAt?, rev}}.
 * A missing or null {@code rev} reads as 0 (a service older than revisions); a negative {@code lastMessageSeq} or
 * {@code rev} is a {@link JsonDataException}.
 */
public final class RoomJsonAdapter extends JsonAdapter<Room> {
  /** The shared instance; it is stateless. */
  public static final RoomJsonAdapter INSTANCE = new RoomJsonAdapter();

  private static final JsonReader.Options NAMES = JsonReader.Options.of("id", "name", "memberIds",
      "createdAt", "lastMessageSeq", "lastMessageAt", "rev");

  private RoomJsonAdapter() {
  }

  @Override
  public Room fromJson(JsonReader reader) throws IOException {
    Room.Builder b = Room.builder();
    boolean hasId = false;
    reader.beginObject();
    while (reader.hasNext()) {
      switch (reader.selectName(NAMES)) {
        case 0:
          b.id(Json.nextString(reader));
          hasId = true;
          break;
        case 1:
          b.name(Json.nextStringOrNull(reader));
          break;
        case 2:
          b.memberIds(Json.nextStringList(reader));
          break;
        case 3:
          Long created = Json.nextTimestampOrNull(reader);
          if (created != null) b.createdAt(created);
          break;
        case 4:
          if (reader.peek() == JsonReader.Token.NULL) {
            reader.nextNull();
          } else {
            b.lastMessageSeq(Json.nextLongAtLeast(reader, 0));
          }
          break;
        case 5:
          b.lastMessageAt(Json.nextTimestampOrNull(reader));
          break;
        case 6:
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
    if (!hasId) throw new JsonDataException("room without id at " + reader.getPath());
    return b.build();
  }

  @Override
  public void toJson(JsonWriter writer, Room r) throws IOException {
    writer.beginObject();
    writer.name("id").value(r.id());
    if (r.name() != null) writer.name("name").value(r.name());
    writer.name("memberIds").beginArray();
    for (String m : r.memberIds()) writer.value(m);
    writer.endArray();
    writer.name("createdAt").value(IsoTimestamps.format(r.createdAt()));
    writer.name("lastMessageSeq").value(r.lastMessageSeq());
    if (r.lastMessageAt() != null) writer.name("lastMessageAt").value(IsoTimestamps.format(r.lastMessageAt()));
    writer.name("rev").value(r.rev());
    writer.endObject();
  }
}
