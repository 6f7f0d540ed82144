package dev.svc.chat.internal.socketio;

import java.io.IOException;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.internal.json.Json;

/** Parses and encodes Engine.IO v4 packets (WebSocket transport: one packet per text frame). */
public final class EngineIoCodec {
  /** The payload limit assumed until the server's OPEN packet says otherwise (the official default). */
  public static final long DEFAULT_MAX_PAYLOAD = 1_000_000;

  private static final EngineIoPacket.Type[] TYPES = EngineIoPacket.Type.values();
  private static final JsonReader.Options OPEN_NAMES =
      JsonReader.Options.of("sid", "pingInterval", "pingTimeout", "maxPayload");

  private EngineIoCodec() {
  }

  /** Returns the packet in a text frame. */
  public static EngineIoPacket decode(CharSequence frame) throws MalformedFrameException {
    if (frame.length() == 0) throw new MalformedFrameException("empty Engine.IO frame");
    int t = frame.charAt(0) - '0';
    if (t < 0 || t >= TYPES.length) {
      throw new MalformedFrameException("unknown Engine.IO packet type: " + abbreviate(frame));
    }
    return new EngineIoPacket(TYPES[t], frame.subSequence(1, frame.length()).toString());
  }

  /** Returns the text frame of a packet. */
  public static String encode(EngineIoPacket.Type type, String data) {
    return (char) ('0' + type.ordinal()) + data;
  }

  /** Returns the text frame of a MESSAGE packet carrying a Socket.IO packet. */
  public static String message(String socketIoPacket) {
    return '4' + socketIoPacket;
  }

  /** The shortest ping interval or timeout accepted in a handshake. */
  public static final long MIN_PING_MILLIS = 50;
  /** The longest ping interval or timeout accepted in a handshake: ten minutes. */
  public static final long MAX_PING_MILLIS = 600_000;
  /** The smallest {@code maxPayload} accepted in a handshake. */
  public static final long MIN_MAX_PAYLOAD = 1_024;

  /** Parses the data of an OPEN packet, refusing values out of bounds. */
  public static EngineIoHandshake parseOpen(String data) throws MalformedFrameException {
    String sid = null;
    long pingInterval = -1;
    long pingTimeout = -1;
    long maxPayload = DEFAULT_MAX_PAYLOAD;
    try {
      JsonReader reader = Json.reader(data);
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(OPEN_NAMES)) {
          case 0:
            sid = reader.nextString();
            break;
          case 1:
            pingInterval = reader.nextLong();
            break;
          case 2:
            pingTimeout = reader.nextLong();
            break;
          case 3:
            maxPayload = reader.nextLong();
            break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) throw new JsonDataException("trailing data");
    } catch (IOException | JsonDataException e) {
      throw new MalformedFrameException("malformed OPEN packet: " + e.getMessage());
    }
    if (sid == null || pingInterval <= 0 || pingTimeout <= 0 || maxPayload <= 0) {
      throw new MalformedFrameException("OPEN packet without sid, pingInterval, pingTimeout: " + abbreviate(data));
    }
    if (pingInterval < MIN_PING_MILLIS || pingInterval > MAX_PING_MILLIS || pingTimeout < MIN_PING_MILLIS
        || pingTimeout > MAX_PING_MILLIS || maxPayload < MIN_MAX_PAYLOAD) {
      // a server that asks for a ping every millisecond, or never, would drive a reconnect storm or hide a
      // dead connection: refuse the handshake (the engine retries with backoff)
      throw new MalformedFrameException("OPEN packet with values out of bounds (pingInterval and pingTimeout "
          + MIN_PING_MILLIS + " to " + MAX_PING_MILLIS + " ms, maxPayload at least " + MIN_MAX_PAYLOAD + "): "
          + abbreviate(data));
    }
    return new EngineIoHandshake(sid, pingInterval, pingTimeout, maxPayload);
  }

  /** Returns {@code s}, cut to 200 characters for a log or error message. */
  public static String abbreviate(CharSequence s) {
    return s.length() <= 200 ? s.toString() : s.subSequence(0, 200) + "...(" + s.length() + " chars)";
  }

  /** Returns the UTF-8 length of {@code s} without encoding it. */
  public static long utf8Size(CharSequence s) {
    long size = 0;
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        size++;
      } else if (c < 0x800) {
        size += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        size += 4;
        i++;
      } else {
        size += 3;
      }
    }
    return size;
  }
}
