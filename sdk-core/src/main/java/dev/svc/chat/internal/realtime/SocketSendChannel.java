package dev.svc.chat.internal.realtime;

import java.io.IOException;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.internal.json.Json;

/**
 * The offer of one accepted connection to take sends as {@code send-message} events, specified in
 * docs/protocol.md, section "Extension: sends over the socket" (the reference server's handler cites the same
 * section): made when its CONNECT answer carried {@code "svc":{"sendMessage":true}} and its frame limit holds
 * the largest send the service accepts. One object per connection, so that sends in flight on one connection
 * are told apart from those of the next: the outbox's socket route ({@code internal.outbox.SendRoute}, which
 * states the ordering rule and the window) is one per channel.
 */
public final class SocketSendChannel {
  /**
   * The largest {@code send-message} frame: a send's JSON is at most 64 KiB, as a REST body (the service
   * refuses more with {@code payload_too_large}), plus the roomId and the frame's envelope.
   */
  static final long LARGEST_SEND_FRAME = 64 * 1024 + 1024;

  /** The id of the connection (in its client), for logs. */
  public final int connectionId;

  private SocketSendChannel(int connectionId) {
    this.connectionId = connectionId;
  }

  /**
   * Returns the channel of connection {@code id} if the CONNECT answer {@code data} (its JSON object, or null)
   * offers socket sends and the gateway's frame limit {@code maxPayload} holds the largest send; else null.
   */
  static SocketSendChannel offered(int id, String data, long maxPayload) {
    if (data == null || maxPayload < LARGEST_SEND_FRAME) return null;
    try {
      JsonReader reader = Json.reader(data);
      reader.beginObject();
      while (reader.hasNext()) {
        if (reader.nextName().equals("svc") && reader.peek() == JsonReader.Token.BEGIN_OBJECT) {
          reader.beginObject();
          while (reader.hasNext()) {
            if (reader.nextName().equals("sendMessage") && reader.peek() == JsonReader.Token.BOOLEAN) {
              if (reader.nextBoolean()) return new SocketSendChannel(id);
            } else {
              reader.skipValue();
            }
          }
          reader.endObject();
        } else {
          reader.skipValue();
        }
      }
    } catch (IOException | JsonDataException e) {
      return null; // an answer we cannot read offers nothing: REST
    }
    return null;
  }

  @Override
  public String toString() {
    return "socket sends of connection #" + connectionId;
  }
}
