package dev.svc.chat.internal.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of {@link SocketIoCodec}: a packet is decoded or refused with a {@link MalformedFrameException},
 * never another exception; a decoded packet encodes to text that decodes to an equal packet; and the fast
 * event-head scan ({@link SocketIoCodec#fastEvent}) takes a frame only as the strict decoder reads it.
 */
class SocketIoCodecFuzzTest {
  /** Decodes the data of an Engine.IO MESSAGE; what it accepts round-trips through {@link SocketIoCodec#encode}. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void decode(byte[] data) throws MalformedFrameException {
    String text = new String(data, StandardCharsets.UTF_8);
    SocketIoPacket packet;
    try {
      packet = SocketIoCodec.decode(text);
    } catch (MalformedFrameException e) {
      return;
    }
    SocketIoPacket again = SocketIoCodec.decode(SocketIoCodec.encode(packet));
    assertEquals(packet, again, text);
    assertEquals(packet.eventName, again.eventName, text);
  }

  /**
   * Scans a whole frame on the fast path: a frame it takes is one the strict decoder reads as the same
   * event (same name, same payload) exactly when its arguments check out, and reading those arguments
   * throws nothing but the reader's documented exceptions.
   */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void fastEvent(byte[] data) {
    String frame = new String(data, StandardCharsets.UTF_8);
    SocketIoPacket fast = SocketIoCodec.fastEvent(frame);
    // a transport's CharSequence (not a String) is scanned exactly as the String
    assertEquals(fast, SocketIoCodec.fastEvent(new StringBuilder(frame)), frame);
    if (fast == null) return;
    assertEquals(fast.eventName, SocketIoCodec.fastEvent(java.nio.CharBuffer.wrap(frame)).eventName, frame);
    SocketIoPacket strict = null;
    try {
      strict = SocketIoCodec.decode(frame.substring(1));
    } catch (MalformedFrameException e) {
      // refused by the strict decoder: the arguments check must refuse it too
    }
    MalformedFrameException argumentsRefused = null;
    try {
      SocketIoCodec.checkArguments(fast);
    } catch (MalformedFrameException e) {
      argumentsRefused = e;
    }
    if (strict == null) {
      assertEquals(true, argumentsRefused != null, "fast path took a frame the decoder refuses: " + frame);
      return;
    }
    assertNull(argumentsRefused, "fast path refused a frame the decoder reads: " + frame);
    assertEquals(strict, fast, frame);
    assertEquals(strict.eventName, fast.eventName, frame);
    assertEquals(strict.data(), fast.data(), frame);
    // the arguments as the decoders read them: after the name, to the end of the frame
    try {
      JsonReader reader = SocketIoCodec.arguments(fast);
      SocketIoCodec.endArguments(reader);
    } catch (IOException | JsonDataException e) {
      throw new AssertionError("arguments of a well-formed frame refused: " + frame, e);
    }
  }
}
