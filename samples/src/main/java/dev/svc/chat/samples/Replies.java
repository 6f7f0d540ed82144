package dev.svc.chat.samples;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import java.util.List;
import java.util.Optional;

/**
 * Replies, as the samples write and read them. The contract has no reply field, but it keeps part types it does
 * not know as they were sent (contract.md, "Readers keep unknown part types as they are"). So a reply is a
 * message whose first part has the type {@code reply}, naming the original's {@code messageId} and
 * {@code senderId} and quoting the start of its text, followed by the answer's text part. Clients that do not
 * know the type show the text part only ({@link Message#text()} reads text parts only).
 */
public final class Replies {
  /** The part type of a reference to the message answered. */
  public static final String TYPE = "reply";
  /** The longest quote kept in a reply part, in characters. */
  public static final int MAX_QUOTE = 80;

  private static final ObjectMapper JSON = new ObjectMapper();

  private Replies() {}

  /** What a reply part says about the message it answers. */
  public record Reply(String messageId, String senderId, String quote) {}

  /**
   * Returns the parts of a reply to {@code original} that says {@code text}.
   *
   * @param original the message answered
   * @param text the answer
   * @return a reply part, then a text part
   */
  public static List<MessagePart> to(Message original, String text) {
    String quote = original.text();
    if (quote.length() > MAX_QUOTE) quote = quote.substring(0, MAX_QUOTE - 1) + "…";
    MessagePart ref = MessagePart.builder(TYPE).text(quote)
        .rawField("messageId", json(original.id()))
        .rawField("senderId", json(original.senderId()))
        .build();
    return List.of(ref, MessagePart.text(text));
  }

  /**
   * Returns the reply part of a message, if it has a well-formed one.
   *
   * @param message any message
   * @return what it answers, or empty for a message that is not a reply
   */
  public static Optional<Reply> of(Message message) {
    for (MessagePart p : message.parts()) {
      if (!TYPE.equals(p.type())) continue;
      String id = string(p.rawFields().get("messageId"));
      String sender = string(p.rawFields().get("senderId"));
      if (id != null && sender != null) return Optional.of(new Reply(id, sender, p.text() == null ? "" : p.text()));
    }
    return Optional.empty();
  }

  private static String json(String value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static String string(String rawJson) {
    if (rawJson == null) return null;
    try {
      Object value = JSON.readValue(rawJson, Object.class);
      return value instanceof String s ? s : null;
    } catch (JsonProcessingException e) {
      return null; // another client's malformed part: not a reply we can show
    }
  }
}
