package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.Map;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.MessagePart;
import okio.Buffer;

/**
 * Reads and writes {@link MessagePart}: {@code {type, text?, ...}}. Fields other than {@code type} and
 * {@code text} are kept as raw JSON and written back as they were.
 */
public final class MessagePartJsonAdapter extends JsonAdapter<MessagePart> {
  /** The shared instance; it is stateless. */
  public static final MessagePartJsonAdapter INSTANCE = new MessagePartJsonAdapter();

  private static final JsonReader.Options NAMES = JsonReader.Options.of("type", "text");

  private MessagePartJsonAdapter() {
  }

  @Override
  public MessagePart fromJson(JsonReader reader) throws IOException {
    String type = null;
    String text = null;
    Map<String, String> raw = null;
    reader.beginObject();
    while (reader.hasNext()) {
      switch (reader.selectName(NAMES)) {
        case 0:
          type = Json.nextStringOrNull(reader);
          break;
        case 1:
          text = Json.nextStringOrNull(reader);
          break;
        default:
          if (raw == null) raw = new java.util.LinkedHashMap<>();
          raw.put(reader.nextName(), RawJson.read(reader));
      }
    }
    reader.endObject();
    if (type == null || type.isEmpty()) throw new JsonDataException("part without type at " + reader.getPath());
    MessagePart.Builder b = MessagePart.builder(type).text(text);
    if (raw != null) {
      for (Map.Entry<String, String> e : raw.entrySet()) b.rawField(e.getKey(), e.getValue());
    }
    return b.build();
  }

  @Override
  public void toJson(JsonWriter writer, MessagePart part) throws IOException {
    writer.beginObject();
    writer.name("type").value(part.type());
    if (part.text() != null) writer.name("text").value(part.text());
    for (Map.Entry<String, String> e : part.rawFields().entrySet()) {
      writer.name(e.getKey()).value(new Buffer().writeUtf8(e.getValue()));
    }
    writer.endObject();
  }
}
