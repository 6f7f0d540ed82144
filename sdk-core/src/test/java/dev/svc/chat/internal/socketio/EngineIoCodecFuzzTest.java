package dev.svc.chat.internal.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of {@link EngineIoCodec}: a text frame is a packet or a {@link MalformedFrameException}, never
 * another exception, and a decoded packet encodes back to the same frame. In {@code mvn verify} these run over
 * the committed inputs only (regression mode); {@code build-tools/fuzz} fuzzes them.
 */
class EngineIoCodecFuzzTest {
  /** Decodes a frame; what it accepts encodes to the same frame. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void decode(byte[] data) {
    String frame = new String(data, StandardCharsets.UTF_8);
    EngineIoPacket packet;
    try {
      packet = EngineIoCodec.decode(frame);
    } catch (MalformedFrameException e) {
      return;
    }
    assertEquals(frame, EngineIoCodec.encode(packet.type, packet.data));
    assertEquals(frame.getBytes(StandardCharsets.UTF_8).length, EngineIoCodec.utf8Size(frame));
  }

  /** Reads an OPEN packet's data: a handshake within the documented bounds, or a MalformedFrameException. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parseOpen(byte[] data) {
    String json = new String(data, StandardCharsets.UTF_8);
    EngineIoHandshake h;
    try {
      h = EngineIoCodec.parseOpen(json);
    } catch (MalformedFrameException e) {
      return;
    }
    assertTrue(h.sid != null, "sid");
    assertTrue(h.pingIntervalMillis >= EngineIoCodec.MIN_PING_MILLIS
        && h.pingIntervalMillis <= EngineIoCodec.MAX_PING_MILLIS, h.toString());
    assertTrue(h.pingTimeoutMillis >= EngineIoCodec.MIN_PING_MILLIS
        && h.pingTimeoutMillis <= EngineIoCodec.MAX_PING_MILLIS, h.toString());
    assertTrue(h.maxPayload >= EngineIoCodec.MIN_MAX_PAYLOAD, h.toString());
  }
}
