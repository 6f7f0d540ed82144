package dev.svc.chat.internal.socketio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.internal.json.Json;
import okio.Buffer;

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
    String data = p.data();
    StringBuilder sb = new StringBuilder(data.length() + 16);
    sb.append((char) ('0' + p.type.ordinal()));
    if (p.type == SocketIoPacket.Type.BINARY_EVENT || p.type == SocketIoPacket.Type.BINARY_ACK) {
      sb.append(p.attachments).append('-');
    }
    if (!p.namespace.equals(SocketIoPacket.DEFAULT_NAMESPACE)) sb.append(p.namespace).append(',');
    if (p.ackId != SocketIoPacket.NO_ACK) sb.append(p.ackId);
    return sb.append(data).toString();
  }

  /**
   * Returns the Engine.IO text frame of an EVENT packet for the default namespace, the same text as {@code
   * EngineIoCodec.message(encode(SocketIoPacket.event(name, argsJson, ackId)))} but built in one buffer: the
   * send path's frame, whose arguments that way were copied into four strings in turn.
   */
  public static String eventFrame(String name, String argsJson, int ackId) {
    boolean plain = isPlainName(name);
    String quoted = plain ? null : Json.string(name);
    StringBuilder sb = new StringBuilder(argsJson.length() + name.length() + 24);
    sb.append('4').append((char) ('0' + SocketIoPacket.Type.EVENT.ordinal()));
    if (ackId != SocketIoPacket.NO_ACK) sb.append(ackId);
    sb.append('[');
    if (plain) {
      sb.append('"').append(name).append('"');
    } else {
      sb.append(quoted);
    }
    if (!argsJson.isEmpty()) sb.append(',').append(argsJson);
    return sb.append(']').toString();
  }

  /** Whether {@code name} is its own JSON string's content: letters, digits, '-', '_', '.' and ':' only. */
  private static boolean isPlainName(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '.' || c == ':';
      if (!plain) return false;
    }
    return true;
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
    try (JsonReader reader = Json.reader(data)) {
      if (reader.peek() != first) throw malformed("payload is not a JSON " + first, text);
      reader.skipValue();
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) throw malformed("trailing data", text);
    } catch (IOException | JsonDataException e) {
      throw malformed("payload is not JSON (" + e.getMessage() + ")", text);
    }
  }

  private static String eventName(String data, String text) throws MalformedFrameException {
    try (JsonReader reader = Json.reader(data)) {
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
   * The names the gateway sends (contract.md, server to client): the fast path returns these very instances for
   * them, so a frame costs no String for its name and every map keyed by the name finds its hash computed.
   */
  private static final String[] GATEWAY_NAMES = {
      "new-message", "message-updated", "typing", "tenant-presence", "room-read", "call-invite", "call-accepted",
      "call-declined", "call-ended", "session-expired"};

  /**
   * The fast path of the commonest frame, an Engine.IO MESSAGE carrying a Socket.IO EVENT of the default
   * namespace without an ack id: {@code 42["name",...]}. Reads the type, the name and where the arguments
   * start straight from the frame, without copying or encoding it; the arguments are read once, later, by
   * whoever decodes the payload ({@link #arguments}). Returns null for any other frame, and for a name this
   * scan does not take (escapes, control characters, non-ASCII, a reserved name, spaces): {@link #decode} then reads
   * the frame strictly, as ever. The packet keeps {@code frame} itself (not a copy), so its characters must not
   * change afterwards.
   *
   * @param frame a whole text frame, Engine.IO type included
   */
  public static SocketIoPacket fastEvent(CharSequence frame) {
    int n = frame.length();
    if (n < 5 || frame.charAt(0) != '4' || frame.charAt(1) != '2' || frame.charAt(2) != '['
        || frame.charAt(3) != '"') {
      return null;
    }
    int i = 4;
    while (i < n) {
      char c = frame.charAt(i);
      if (c == '"') break;
      if (c == '\\' || c < 0x20 || c >= 0x80) return null; // ASCII: where the arguments start is a byte offset too
      i++;
    }
    if (i >= n - 1) return null;
    char after = frame.charAt(i + 1);
    int argsStart;
    if (after == ',') {
      argsStart = i + 2;
      // no value after the comma ("42[\"e\",]") would read as an empty argument list: left to decode
      if (argsStart < n && " \t\r\n],".indexOf(frame.charAt(argsStart)) >= 0) return null;
    } else if (after == ']' && i + 2 == n) {
      argsStart = -1;
    } else {
      return null;
    }
    String name = gatewayName(frame, 4, i);
    if (name == null) {
      name = frame.subSequence(4, i).toString();
      if (isReserved(name)) return null;
    }
    return new SocketIoPacket(frame, 2, argsStart, name);
  }

  /** Returns the gateway's name spelled by {@code frame} from {@code start} to {@code end}, or null. */
  static String gatewayName(CharSequence frame, int start, int end) {
    int length = end - start;
    for (String name : GATEWAY_NAMES) {
      if (name.length() != length) continue;
      int k = 0;
      while (k < length && frame.charAt(start + k) == name.charAt(k)) k++;
      if (k == length) return name;
    }
    return null;
  }

  /**
   * Returns a reader positioned at the first argument after the name of an EVENT (or at the end of its
   * arguments when it has none): the reader is inside the data array, which the caller ends with
   * {@link #endArguments}. For an event read on the fast path this is the one parse of its arguments,
   * over one UTF-8 copy of them only.
   */
  public static JsonReader arguments(SocketIoPacket event) throws IOException {
    JsonReader reader;
    if (event.frame != null) {
      Buffer buffer = new Buffer().writeByte('[');
      if (event.argsStart >= 0) {
        // String.getBytes is an intrinsic (a plain copy for the usual all-ASCII frame), many times faster
        // than encoding char by char; the frame's head is ASCII, so argsStart is a byte offset too
        // (a transport's CharSequence other than a String is made one here: only a frame the fast reader left
        // to Moshi, such as a message with an escape, comes this way)
        byte[] utf8 = event.frame.toString().getBytes(StandardCharsets.UTF_8);
        buffer.write(utf8, event.argsStart, utf8.length - event.argsStart);
      } else {
        buffer.writeByte(']');
      }
      reader = JsonReader.of(buffer);
      reader.beginArray();
    } else {
      reader = Json.reader(event.data());
      reader.beginArray();
      reader.skipValue();
    }
    return reader;
  }

  /** Skips what is left of the arguments of {@code reader} (from {@link #arguments}) and checks they end the frame. */
  public static void endArguments(JsonReader reader) throws IOException {
    while (reader.hasNext()) reader.skipValue();
    reader.endArray();
    if (reader.peek() != JsonReader.Token.END_DOCUMENT) throw new JsonEncodingException("trailing data");
  }

  /**
   * Checks the arguments of an event read on the fast path that nobody decodes (an event this SDK does
   * not know), as {@link #decode} would have: the stream is in step only if the frame was well formed.
   */
  public static void checkArguments(SocketIoPacket event) throws MalformedFrameException {
    if (event.frame == null) return; // decode() checked it
    try {
      endArguments(arguments(event));
    } catch (IOException | JsonDataException e) {
      throw malformed("event payload is not JSON (" + e.getMessage() + ")", event.frame);
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static MalformedFrameException malformed(String why, CharSequence text) {
    return new MalformedFrameException(why + ": " + EngineIoCodec.abbreviate(text));
  }
}
