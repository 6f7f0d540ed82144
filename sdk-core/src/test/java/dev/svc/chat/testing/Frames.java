package dev.svc.chat.testing;

/** Wire payloads used by the tests, shaped as contract.md says. */
public final class Frames {
  private Frames() {
  }

  public static String messageJson(String id, String roomId, long seq, String text) {
    return "{\"id\":\"" + id + "\",\"roomId\":\"" + roomId + "\",\"seq\":" + seq
        + ",\"senderId\":\"bob\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}],"
        + "\"clientMessageId\":\"c-" + id + "\",\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"reactions\":{}}";
  }

  public static String newMessage(String id, String roomId, long seq, String text) {
    return "42[\"new-message\"," + messageJson(id, roomId, seq, text) + "]";
  }

  public static String roomJson(String id) {
    return "{\"id\":\"" + id + "\",\"name\":\"General\",\"memberIds\":[\"alice\",\"bob\"],"
        + "\"createdAt\":\"2026-11-21T09:00:00.000Z\",\"lastMessageSeq\":3,"
        + "\"lastMessageAt\":\"2026-11-21T10:00:00.000Z\"}";
  }
}
