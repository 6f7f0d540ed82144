package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.Message;
import dev.svc.chat.internal.socketio.MalformedFrameException;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of {@link FastMessageReader} against {@link MessageJsonAdapter} on the same frame: what the fast
 * reader takes, the adapter reads as an equal message from a frame the strict decoder accepts; what it gives
 * up on, the adapter reads or refuses with its documented exceptions ({@link JsonDataException}, or an
 * {@link IOException} for malformed JSON); neither throws anything else.
 */
class FastMessageReaderFuzzTest {
  /**
   * The input is a whole frame when it starts with {@code 4}, else the payload of a {@code new-message}
   * event (so that mutations of a message stay inside a frame the fast path scans).
   */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void readMessage(byte[] data) {
    String input = new String(data, StandardCharsets.UTF_8);
    String frame = input.startsWith("4") ? input : "42[\"new-message\"," + input + "]";
    SocketIoPacket event = SocketIoCodec.fastEvent(frame);
    if (event == null) return; // not on the fast path: the fast reader never sees it

    FastMessageReader reader = new FastMessageReader();
    Message fast = reader.readMessage(event.frame(), event.argsStart());
    // the same reader again: its buffer and its cache of repeated strings change nothing
    assertEquals(fast, reader.readMessage(event.frame(), event.argsStart()), frame);
    // from a transport's CharSequence (not a String), with the same reader: the same message, or none
    assertEquals(fast, reader.readMessage(new StringBuilder(frame), event.argsStart()), frame);
    assertEquals(fast, reader.readMessage(java.nio.CharBuffer.wrap(frame), event.argsStart()), frame);

    Message adapter;
    try {
      adapter = readWithAdapter(event);
    } catch (IOException | JsonDataException e) {
      if (fast != null) throw new AssertionError("fast reader took what the adapter refuses: " + frame, e);
      return;
    }
    if (fast == null) return;
    assertEquals(adapter, fast, frame);
    assertEquals(adapter.toString(), fast.toString(), frame);
    try {
      assertNotNull(SocketIoCodec.decode(frame.substring(1)), frame);
    } catch (MalformedFrameException e) {
      throw new AssertionError("fast reader took a frame the decoder refuses: " + frame, e);
    }
    // round trip: the message as the adapter writes it reads back equal
    String json = Json.write(MessageJsonAdapter.INSTANCE, fast);
    try {
      assertEquals(fast, MessageJsonAdapter.INSTANCE.fromJson(Json.reader(json)), json);
    } catch (IOException e) {
      throw new AssertionError(json, e);
    }
  }

  /** Reads the event's payload as {@code GatewayEvents.Decoder} does when the fast reader gives up. */
  private static Message readWithAdapter(SocketIoPacket event) throws IOException {
    JsonReader reader = SocketIoCodec.arguments(event);
    if (!reader.hasNext()) throw new JsonDataException("event without payload");
    Message m = MessageJsonAdapter.INSTANCE.fromJson(reader);
    if (m == null) throw new JsonDataException("null payload");
    SocketIoCodec.endArguments(reader);
    return m;
  }
}
