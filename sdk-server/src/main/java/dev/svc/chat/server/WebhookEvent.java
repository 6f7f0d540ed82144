package dev.svc.chat.server;

import java.io.IOException;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import okio.Buffer;

/**
 * A verified webhook: {@code {type, timestamp, data}} and the {@code webhook-id} it came with. Read
 * {@code data} with the accessor of its type: {@link #message()} for {@code message.*}, {@link #call()}
 * for {@code call.*}; {@link #dataJson()} gives the raw JSON of any type, including {@code room.read} (a
 * receipt {@code {roomId, userId, messageId, seq, readAt}}) and types newer than this SDK.
 */
public final class WebhookEvent {
  /** A message was sent; data is a Message. */
  public static final String MESSAGE_NEW = "message.new";
  /** A message was edited, reacted to or deleted; data is the Message after the change. */
  public static final String MESSAGE_UPDATED = "message.updated";
  /** A read receipt moved; data is a Receipt {@code {roomId, userId, messageId, seq, readAt}}. */
  public static final String ROOM_READ = "room.read";
  /** A call started ringing; data is a Call. */
  public static final String CALL_STARTED = "call.started";
  /** A call ended (see {@link ChatCall#endReason()}); data is a Call. */
  public static final String CALL_ENDED = "call.ended";

  private static final JsonReader.Options NAMES = JsonReader.Options.of("type", "timestamp", "data");

  private final String webhookId;
  private final String type;
  private final long timestamp;
  private final String dataJson;

  private WebhookEvent(String webhookId, String type, long timestamp, String dataJson) {
    this.webhookId = webhookId;
    this.type = type;
    this.timestamp = timestamp;
    this.dataJson = dataJson;
  }

  /**
   * Parses a webhook payload. {@link WebhookVerifier#verify} calls it after checking the signature; call
   * it directly only for a payload verified otherwise.
   *
   * @param webhookId the {@code webhook-id} header
   * @param payload the raw body
   * @return the event
   * @throws WebhookVerificationException ({@link WebhookVerificationException.Reason#MALFORMED_PAYLOAD}) if
   *     the payload is not {@code {type, timestamp, data}}
   */
  public static WebhookEvent parse(String webhookId, String payload) {
    String type = null;
    long timestamp = 0;
    String data = null;
    try {
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(payload));
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(NAMES)) {
          case 0:
            type = reader.nextString();
            break;
          case 1:
            timestamp = Wire.timestamp(reader.nextString());
            break;
          case 2:
            data = reader.nextSource().readUtf8();
            break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
    } catch (IOException | JsonDataException | IllegalArgumentException e) {
      throw new WebhookVerificationException(WebhookVerificationException.Reason.MALFORMED_PAYLOAD,
          "the webhook payload is not {type, timestamp, data}: " + e.getMessage());
    }
    if (type == null || data == null) {
      throw new WebhookVerificationException(WebhookVerificationException.Reason.MALFORMED_PAYLOAD,
          "the webhook payload lacks type or data");
    }
    return new WebhookEvent(webhookId, type, timestamp, data);
  }

  /**
   * Returns the {@code webhook-id}: the same for every retry of one event, so receivers deduplicate on it.
   *
   * @return the id
   */
  public String webhookId() {
    return webhookId;
  }

  /**
   * Returns the event type, such as {@link #MESSAGE_NEW}.
   *
   * @return the type
   */
  public String type() {
    return type;
  }

  /**
   * Returns when the event happened (not when it was delivered), in epoch milliseconds.
   *
   * @return the time, or 0 if the payload had none
   */
  public long timestamp() {
    return timestamp;
  }

  /**
   * Returns the event's data as raw JSON.
   *
   * @return the JSON text of {@code data}
   */
  public String dataJson() {
    return dataJson;
  }

  /**
   * Returns the data as a message, for {@link #MESSAGE_NEW} and {@link #MESSAGE_UPDATED}.
   *
   * @return the message
   * @throws IllegalStateException if the event is of another type or its data is not a message
   */
  public ChatMessage message() {
    if (!MESSAGE_NEW.equals(type) && !MESSAGE_UPDATED.equals(type)) {
      throw new IllegalStateException("a " + type + " webhook does not carry a message");
    }
    try {
      return Wire.message(Wire.object(dataJson));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("malformed message in a " + type + " webhook: " + e.getMessage(), e);
    }
  }

  /**
   * Returns the data as a call, for {@link #CALL_STARTED} and {@link #CALL_ENDED}.
   *
   * @return the call
   * @throws IllegalStateException if the event is of another type or its data is not a call
   */
  public ChatCall call() {
    if (!type.startsWith("call.")) {
      throw new IllegalStateException("a " + type + " webhook does not carry a call");
    }
    try {
      return Wire.call(Wire.object(dataJson));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("malformed call in a " + type + " webhook: " + e.getMessage(), e);
    }
  }

  /**
   * Returns whether this event's type is one of the five this SDK knows.
   *
   * @return false for a type newer than this SDK
   */
  public boolean isKnownType() {
    return MESSAGE_NEW.equals(type) || MESSAGE_UPDATED.equals(type) || ROOM_READ.equals(type)
        || CALL_STARTED.equals(type) || CALL_ENDED.equals(type);
  }

  @Override
  public String toString() {
    return "WebhookEvent{id=" + webhookId + ", type=" + type + "}";
  }

}
