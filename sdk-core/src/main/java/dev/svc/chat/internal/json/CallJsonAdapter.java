package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.Locale;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.Call;
import dev.svc.chat.CallStatus;

/**
 * Reads and writes {@link Call}: {@code {id, roomId, kind, initiatorId, status, participantIds, createdAt,
 * endedAt?, endReason?}}. An unknown status reads as {@link CallStatus#UNKNOWN}; an unknown kind is kept as text.
 */
public final class CallJsonAdapter extends JsonAdapter<Call> {
  /** The shared instance; it is stateless. */
  public static final CallJsonAdapter INSTANCE = new CallJsonAdapter();

  private static final JsonReader.Options NAMES = JsonReader.Options.of("id", "roomId", "kind", "initiatorId",
      "status", "participantIds", "createdAt", "endedAt", "endReason");

  private CallJsonAdapter() {
  }

  @Override
  public Call fromJson(JsonReader reader) throws IOException {
    Call.Builder b = Call.builder();
    reader.beginObject();
    while (reader.hasNext()) {
      switch (reader.selectName(NAMES)) {
        case 0:
          b.id(Json.nextString(reader));
          break;
        case 1:
          b.roomId(Json.nextString(reader));
          break;
        case 2:
          b.kindName(Json.nextString(reader));
          break;
        case 3:
          b.initiatorId(Json.nextString(reader));
          break;
        case 4:
          b.status(status(Json.nextString(reader)));
          break;
        case 5:
          b.participantIds(Json.nextStringList(reader));
          break;
        case 6:
          Long created = Json.nextTimestampOrNull(reader);
          if (created != null) b.createdAt(created);
          break;
        case 7:
          b.endedAt(Json.nextTimestampOrNull(reader));
          break;
        case 8:
          b.endReason(Json.nextStringOrNull(reader));
          break;
        default:
          reader.skipName();
          reader.skipValue();
      }
    }
    reader.endObject();
    try {
      return b.build();
    } catch (IllegalStateException e) {
      throw new JsonDataException("call: " + e.getMessage() + " at " + reader.getPath());
    }
  }

  private static CallStatus status(String wire) {
    switch (wire) {
      case "ringing":
        return CallStatus.RINGING;
      case "active":
        return CallStatus.ACTIVE;
      case "declined":
        return CallStatus.DECLINED;
      case "ended":
        return CallStatus.ENDED;
      default:
        return CallStatus.UNKNOWN;
    }
  }

  @Override
  public void toJson(JsonWriter writer, Call c) throws IOException {
    writer.beginObject();
    writer.name("id").value(c.id());
    writer.name("roomId").value(c.roomId());
    writer.name("kind").value(c.kindName());
    writer.name("initiatorId").value(c.initiatorId());
    writer.name("status").value(c.status().name().toLowerCase(Locale.ROOT));
    writer.name("participantIds").beginArray();
    for (String p : c.participantIds()) writer.value(p);
    writer.endArray();
    writer.name("createdAt").value(IsoTimestamps.format(c.createdAt()));
    if (c.endedAt() != null) writer.name("endedAt").value(IsoTimestamps.format(c.endedAt()));
    if (c.endReason() != null) writer.name("endReason").value(c.endReason());
    writer.endObject();
  }
}
