package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.MessagePart;
import dev.svc.chat.PresenceEvent;
import dev.svc.chat.Receipt;
import dev.svc.chat.TypingEvent;

/**
 * The wire shapes of the messaging features: Receipt, the {@code typing} and {@code tenant-presence}
 * payloads, the presence answer, and the request bodies of edit, reaction, read and typing. Unknown fields
 * are skipped; a missing required field, or a receipt's {@code seq} below 1, is a {@link JsonDataException}.
 */
public final class MessagingAdapters {
  private MessagingAdapters() {
  }

  /** Reads {@code {roomId, userId, messageId, seq, readAt}}. */
  public static final JsonAdapter<Receipt> RECEIPT = new ResponseAdapters.ReadOnlyAdapter<Receipt>() {
    private final JsonReader.Options names = JsonReader.Options.of("roomId", "userId", "messageId", "seq", "readAt");

    @Override
    public Receipt fromJson(JsonReader reader) throws IOException {
      String roomId = null;
      String userId = null;
      String messageId = null;
      Long seq = null;
      Long readAt = null;
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(names)) {
          case 0: roomId = Json.nextString(reader); break;
          case 1: userId = Json.nextString(reader); break;
          case 2: messageId = Json.nextString(reader); break;
          case 3: seq = Json.nextLongAtLeast(reader, 1); break;
          case 4: readAt = Json.nextTimestampOrNull(reader); break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
      if (roomId == null || userId == null || messageId == null || seq == null || readAt == null) {
        throw new JsonDataException("receipt without roomId, userId, messageId, seq or readAt at " + reader.getPath());
      }
      return Receipt.of(roomId, userId, messageId, seq, readAt);
    }
  };

  /** Reads {@code {roomId, userId, isTyping}}. */
  public static final JsonAdapter<TypingEvent> TYPING = new ResponseAdapters.ReadOnlyAdapter<TypingEvent>() {
    private final JsonReader.Options names = JsonReader.Options.of("roomId", "userId", "isTyping");

    @Override
    public TypingEvent fromJson(JsonReader reader) throws IOException {
      String roomId = null;
      String userId = null;
      Boolean typing = null;
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(names)) {
          case 0: roomId = Json.nextString(reader); break;
          case 1: userId = Json.nextString(reader); break;
          case 2: typing = reader.nextBoolean(); break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
      if (roomId == null || userId == null || typing == null) {
        throw new JsonDataException("typing without roomId, userId or isTyping at " + reader.getPath());
      }
      return TypingEvent.of(roomId, userId, typing);
    }
  };

  /** Reads {@code {userId, online, at}}. */
  public static final JsonAdapter<PresenceEvent> PRESENCE = new ResponseAdapters.ReadOnlyAdapter<PresenceEvent>() {
    private final JsonReader.Options names = JsonReader.Options.of("userId", "online", "at");

    @Override
    public PresenceEvent fromJson(JsonReader reader) throws IOException {
      String userId = null;
      Boolean online = null;
      Long at = null;
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(names)) {
          case 0: userId = Json.nextString(reader); break;
          case 1: online = reader.nextBoolean(); break;
          case 2: at = Json.nextTimestampOrNull(reader); break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
      if (userId == null || online == null || at == null) {
        throw new JsonDataException("tenant-presence without userId, online or at at " + reader.getPath());
      }
      return PresenceEvent.of(userId, online, at);
    }
  };

  /** Reads {@code {"online": [userId...]}}. */
  public static final JsonAdapter<List<String>> ONLINE = new ResponseAdapters.ReadOnlyAdapter<List<String>>() {
    private final JsonReader.Options names = JsonReader.Options.of("online");

    @Override
    public List<String> fromJson(JsonReader reader) throws IOException {
      List<String> online = new ArrayList<>();
      reader.beginObject();
      while (reader.hasNext()) {
        if (reader.selectName(names) == 0) {
          online = Json.nextStringList(reader);
        } else {
          reader.skipName();
          reader.skipValue();
        }
      }
      reader.endObject();
      return Collections.unmodifiableList(online);
    }
  };

  /** Returns {@code {"parts": [...]}}. */
  public static String partsBody(List<MessagePart> parts) {
    return partsBody(parts, null);
  }

  /** Returns {@code {"parts": [...], "mentions": [...]}}, without mentions when {@code mentions} is null. */
  public static String partsBody(List<MessagePart> parts, List<String> mentions) {
    okio.Buffer buffer = new okio.Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginObject().name("parts").beginArray();
      for (MessagePart p : parts) MessagePartJsonAdapter.INSTANCE.toJson(writer, p);
      writer.endArray();
      if (mentions != null) {
        writer.name("mentions").beginArray();
        for (String u : mentions) writer.value(u);
        writer.endArray();
      }
      writer.endObject();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }

  /** Returns {@code {"roomId": "...", "isTyping": bool}}. */
  public static String typingBody(String roomId, boolean isTyping) {
    okio.Buffer buffer = new okio.Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginObject().name("roomId").value(roomId).name("isTyping").value(isTyping).endObject();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }
}
