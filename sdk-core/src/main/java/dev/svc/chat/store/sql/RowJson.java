package dev.svc.chat.store.sql;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.FastMessageReader;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.json.MessageJsonAdapter;
import dev.svc.chat.internal.json.MessagePartJsonAdapter;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoredSend;
import okio.Buffer;

/**
 * The JSON of the store's text columns, written with the SDK's own wire adapters so that what is read back
 * {@code equals} what was written (parts with their raw fields, reactions, edit and delete times). A column
 * that does not read back is damaged data: {@link StoreException.Kind#CORRUPT}.
 */
final class RowJson {
  private RowJson() {
  }

  static String message(Message message) {
    return Json.write(MessageJsonAdapter.INSTANCE, message);
  }

  /**
   * Reads a stored message with {@code fast} (the gateway's reader, which takes what the adapter writes without a
   * Moshi reader and reads it the same), or with the adapter when it does not take the row.
   */
  static Message message(String json, FastMessageReader fast) throws StoreException {
    Message m = fast.readWhole(json);
    return m != null ? m : message(json);
  }

  static Message message(String json) throws StoreException {
    try {
      return MessageJsonAdapter.INSTANCE.fromJson(Json.reader(json));
    } catch (IOException | JsonDataException | IllegalArgumentException | IllegalStateException e) {
      throw corrupt("a stored message", e);
    }
  }

  static String parts(List<MessagePart> parts) {
    Buffer buffer = new Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginArray();
      for (MessagePart p : parts) MessagePartJsonAdapter.INSTANCE.toJson(writer, p);
      writer.endArray();
    } catch (IOException e) {
      throw new AssertionError(e); // a Buffer does no I/O
    }
    return buffer.readUtf8();
  }

  static List<MessagePart> parts(String json) throws StoreException {
    try {
      JsonReader reader = Json.reader(json);
      List<MessagePart> parts = new ArrayList<>();
      reader.beginArray();
      while (reader.hasNext()) parts.add(MessagePartJsonAdapter.INSTANCE.fromJson(reader));
      reader.endArray();
      return parts;
    } catch (IOException | JsonDataException | IllegalArgumentException | IllegalStateException e) {
      throw corrupt("the stored parts of a send", e);
    }
  }

  /** Returns a send's reply, thread and mentions as a JSON object, or null when it carries none. */
  static String links(StoredSend s) {
    return SendLinks.of(s.replyToId(), s.threadId(), s.mentions()).toJsonOrNull();
  }

  /** Returns a stored send from its columns; {@code links}: its {@link #links} column, null for none. */
  static StoredSend send(String roomId, String clientMessageId, String senderId, List<MessagePart> parts,
      long createdAt, long sequence, String links) throws StoreException {
    SendLinks l;
    try {
      l = SendLinks.fromJson(links);
    } catch (JsonDataException | IllegalArgumentException e) {
      throw corrupt("the stored links of a send", e);
    }
    return new StoredSend(roomId, clientMessageId, senderId, parts, l.replyToId, l.threadId, l.mentions, createdAt,
        sequence);
  }

  static String strings(List<String> values) {
    Buffer buffer = new Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginArray();
      for (String v : values) writer.value(v);
      writer.endArray();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return buffer.readUtf8();
  }

  static List<String> strings(String json) throws StoreException {
    try {
      JsonReader reader = Json.reader(json);
      List<String> values = new ArrayList<>();
      reader.beginArray();
      while (reader.hasNext()) values.add(reader.nextString());
      reader.endArray();
      return values;
    } catch (IOException | JsonDataException e) {
      throw corrupt("the stored members of a room", e);
    }
  }

  private static StoreException corrupt(String what, Exception cause) {
    return new StoreException(StoreException.Kind.CORRUPT, "cannot read " + what + ": " + cause.getMessage(), cause);
  }
}
