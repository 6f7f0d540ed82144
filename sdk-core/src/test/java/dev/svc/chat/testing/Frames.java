package dev.svc.chat.testing;

/** Wire payloads used by the tests, shaped as contract.md says. */
public final class Frames {
  private static final java.util.regex.Pattern CLIENT_MESSAGE_ID =
      java.util.regex.Pattern.compile("\"clientMessageId\":\"([^\"]+)\"");

  private Frames() {
  }

  /** The {@code clientMessageId} in a send's payload; throws if it has none. */
  public static String clientMessageId(String payload) {
    java.util.regex.Matcher m = CLIENT_MESSAGE_ID.matcher(payload);
    if (!m.find()) throw new IllegalArgumentException("no clientMessageId in " + payload);
    return m.group(1);
  }

  /** A socket send's acknowledgement: ok, with message {@code m<seq>} of {@code roomId} for that send. */
  public static String sendAnswer(String clientMessageId, String roomId, long seq) {
    return "{\"ok\":true,\"message\":" + messageJson("m" + seq, roomId, seq, "t")
        .replace("\"c-m" + seq + "\"", "\"" + clientMessageId + "\"") + "}";
  }

  /** A message whose rev equals its seq, as when nothing changed in the room since it was sent. */
  public static String messageJson(String id, String roomId, long seq, String text) {
    return messageJson(id, roomId, seq, seq, text);
  }

  public static String messageJson(String id, String roomId, long seq, long rev, String text) {
    return "{\"id\":\"" + id + "\",\"roomId\":\"" + roomId + "\",\"seq\":" + seq + ",\"rev\":" + rev
        + ",\"senderId\":\"bob\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}],"
        + "\"clientMessageId\":\"c-" + id + "\",\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"reactions\":{}}";
  }

  public static String newMessage(String id, String roomId, long seq, String text) {
    return "42[\"new-message\"," + messageJson(id, roomId, seq, text) + "]";
  }

  public static String roomJson(String id) {
    return "{\"id\":\"" + id + "\",\"name\":\"General\",\"memberIds\":[\"alice\",\"bob\"],"
        + "\"createdAt\":\"2026-11-21T09:00:00.000Z\",\"lastMessageSeq\":3,"
        + "\"lastMessageAt\":\"2026-11-21T10:00:00.000Z\",\"rev\":5}";
  }
}
