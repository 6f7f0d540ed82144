package dev.svc.chat.internal.socketio;

import java.io.IOException;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.internal.json.Json;

/**
 * Parses and encodes Socket.IO v5 packets, strictly: anything the official server would refuse is a
 * {@link MalformedFrameException}, never another exception.
 */
public final class SocketIoCodec {
  private static final SocketIoPacket.Type[] TYPES = SocketIoPacket.Type.values();
  private static final int MAX_NUMBER_DIGITS = 9; // keeps ack ids and attachment counts within int

  private SocketIoCodec() {
  }

  /** Returns the text of a packet (without the Engine.IO {@code 4}). */
  public static String encode(SocketIoPacket p) {
    StringBuilder sb = new StringBuilder(p.data.length() + 16);
    sb.append((char) ('0' + p.type.ordinal()));
    if (p.type == SocketIoPacket.Type.BINARY_EVENT || p.type == SocketIoPacket.Type.BINARY_ACK) {
      sb.append(p.attachments).append('-');
    }
    if (!p.namespace.equals(SocketIoPacket.DEFAULT_NAMESPACE)) sb.append(p.namespace).append(',');
    if (p.ackId != SocketIoPacket.NO_ACK) sb.append(p.ackId);
    return sb.append(p.data).toString();
  }

  /** Returns the packet in {@code text} (the data of an Engine.IO MESSAGE). */
  public static SocketIoPacket decode(String text) throws MalformedFrameException {
    int n = text.length();
    if (n == 0) throw new MalformedFrameException("empty Socket.IO packet");
    int t = text.charAt(0) - '0';
    if (t < 0 || t >= TYPES.length) throw malformed("unknown Socket.IO packet type", text);
    SocketIoPacket.Type type = TYPES[t];
    int i = 1;

    int attachments = 0;
    if (type == SocketIoPacket.Type.BINARY_EVENT || type == SocketIoPacket.Type.BINARY_ACK) {
      int start = i;
      while (i < n && isDigit(text.charAt(i))) i++;
      if (i == start || i - start > MAX_NUMBER_DIGITS || i >= n || text.charAt(i) != '-') {
        throw malformed("binary packet without attachment count", text);
      }
      attachments = Integer.parseInt(text.substring(start, i));
      i++;
    }

    String namespace = SocketIoPacket.DEFAULT_NAMESPACE;
    if (i < n && text.charAt(i) == '/') {
      int comma = text.indexOf(',', i);
      int end = comma < 0 ? n : comma;
      namespace = text.substring(i, end);
      i = comma < 0 ? n : comma + 1;
    }

    int ackId = SocketIoPacket.NO_ACK;
    int start = i;
    while (i < n && isDigit(text.charAt(i))) i++;
    if (i > start) {
      if (i - start > MAX_NUMBER_DIGITS) throw malformed("ack id too large", text);
      ackId = Integer.parseInt(text.substring(start, i));
    }

    String data = text.substring(i);
    String eventName = validate(type, ackId, data, text);
    return new SocketIoPacket(type, namespace, ackId, attachments, data, eventName);
  }

  /** Checks the payload against the packet type; returns the event name of an event. */
  private static String validate(SocketIoPacket.Type type, int ackId, String data, String text)
      throws MalformedFrameException {
    switch (type) {
      case CONNECT:
        if (ackId != SocketIoPacket.NO_ACK) throw malformed("CONNECT with an ack id", text);
        if (!data.isEmpty()) requireJson(data, JsonReader.Token.BEGIN_OBJECT, text);
        return null;
      case DISCONNECT:
        if (!data.isEmpty() || ackId != SocketIoPacket.NO_ACK) throw malformed("DISCONNECT with data", text);
        return null;
      case CONNECT_ERROR:
        if (ackId != SocketIoPacket.NO_ACK) throw malformed("CONNECT_ERROR with an ack id", text);
        requireJson(data, JsonReader.Token.BEGIN_OBJECT, text);
        return null;
      case EVENT:
      case BINARY_EVENT:
        return eventName(data, text);
      case ACK:
      case BINARY_ACK:
        if (ackId == SocketIoPacket.NO_ACK) throw malformed("ACK without an ack id", text);
        requireJson(data, JsonReader.Token.BEGIN_ARRAY, text);
        return null;
      default:
        throw new AssertionError(type);
    }
  }

  private static void requireJson(String data, JsonReader.Token first, String text)
      throws MalformedFrameException {
    try {
      JsonReader reader = Json.reader(data);
      if (reader.peek() != first) throw malformed("payload is not a JSON " + first, text);
      reader.skipValue();
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) throw malformed("trailing data", text);
    } catch (IOException | JsonDataException e) {
      throw malformed("payload is not JSON (" + e.getMessage() + ")", text);
    }
  }

  private static String eventName(String data, String text) throws MalformedFrameException {
    try {
      JsonReader reader = Json.reader(data);
      if (reader.peek() != JsonReader.Token.BEGIN_ARRAY) throw malformed("event payload is not an array", text);
      reader.beginArray();
      if (!reader.hasNext() || reader.peek() != JsonReader.Token.STRING) {
        throw malformed("event without a name", text);
      }
      String name = reader.nextString();
      if (isReserved(name)) throw malformed("reserved event name", text);
      while (reader.hasNext()) reader.skipValue();
      reader.endArray();
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) throw malformed("trailing data", text);
      return name;
    } catch (IOException | JsonDataException e) {
      throw malformed("event payload is not JSON (" + e.getMessage() + ")", text);
    }
  }

  /** Returns whether Socket.IO reserves the event name for itself. */
  public static boolean isReserved(String name) {
    switch (name) {
      case "connect":
      case "connect_error":
      case "disconnect":
      case "disconnecting":
      case "newListener":
      case "removeListener":
        return true;
      default:
        return false;
    }
  }

  /**
   * Returns a reader positioned at the first argument after the event name of an EVENT's data, or
   * {@code null} when the event has no argument.
   */
  public static JsonReader firstArgument(SocketIoPacket event) throws IOException {
    JsonReader reader = Json.reader(event.data);
    reader.beginArray();
    reader.skipValue();
    return reader.hasNext() ? reader : null;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static MalformedFrameException malformed(String why, String text) {
    return new MalformedFrameException(why + ": " + EngineIoCodec.abbreviate(text));
  }
}
