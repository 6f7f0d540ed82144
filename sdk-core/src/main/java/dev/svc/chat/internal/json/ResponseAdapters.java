package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Room;

/** The envelopes of REST answers and requests: {@code {rooms}}, {@code {messages, hasMore}}, the send body. */
public final class ResponseAdapters {
  private ResponseAdapters() {
  }

  /** Reads {@code {"rooms": [Room...]}}. */
  public static final JsonAdapter<List<Room>> ROOM_LIST = listField("rooms", RoomJsonAdapter.INSTANCE);

  /**
   * Returns an adapter of an answer object whose field {@code name} is an array read with {@code element}
   * into an unmodifiable list (empty when the field is missing); other fields are skipped.
   */
  static <T> JsonAdapter<List<T>> listField(String name, final JsonAdapter<T> element) {
    final JsonReader.Options names = JsonReader.Options.of(name);
    return new ReadOnlyAdapter<List<T>>() {
      @Override
      public List<T> fromJson(JsonReader reader) throws IOException {
        List<T> list = new ArrayList<>();
        reader.beginObject();
        while (reader.hasNext()) {
          if (reader.selectName(names) == 0) {
            list = Json.nextList(reader, element);
          } else {
            reader.skipName();
            reader.skipValue();
          }
        }
        reader.endObject();
        return Collections.unmodifiableList(list);
      }
    };
  }

  /** Reads {@code {"messages": [Message...], "hasMore": bool}}. */
  public static final JsonAdapter<MessagePage> MESSAGE_PAGE = new ReadOnlyAdapter<MessagePage>() {
    private final JsonReader.Options names = JsonReader.Options.of("messages", "hasMore");

    @Override
    public MessagePage fromJson(JsonReader reader) throws IOException {
      List<Message> messages = new ArrayList<>();
      boolean hasMore = false;
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(names)) {
          case 0:
            messages = Json.nextList(reader, MessageJsonAdapter.INSTANCE);
            break;
          case 1:
            if (reader.peek() == JsonReader.Token.NULL) {
              reader.nextNull();
            } else {
              hasMore = reader.nextBoolean();
            }
            break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
      return new MessagePage(messages, hasMore);
    }
  };

  /** Returns the body of a send: {@code {"parts": [...], "clientMessageId": "..."}}. */
  public static String sendMessageBody(List<MessagePart> parts, String clientMessageId, String senderId) {
    return sendMessageBody(parts, SendLinks.NONE, clientMessageId, senderId);
  }

  /** Returns the send body with the send's section 10 fields ({@code replyToId?, threadId?, mentions?}). */
  public static String sendMessageBody(List<MessagePart> parts, SendLinks links, String clientMessageId,
      String senderId) {
    okio.Buffer buffer = new okio.Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginObject().name("parts").beginArray();
      for (MessagePart p : parts) MessagePartJsonAdapter.INSTANCE.toJson(writer, p);
      writer.endArray().name("clientMessageId").value(clientMessageId).name("senderId").value(senderId);
      links.write(writer);
      writer.endObject();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }

  /** An adapter for answers the SDK only reads. */
  abstract static class ReadOnlyAdapter<T> extends JsonAdapter<T> {
    @Override
    public void toJson(JsonWriter writer, T value) {
      throw new UnsupportedOperationException("read only");
    }
  }
}
