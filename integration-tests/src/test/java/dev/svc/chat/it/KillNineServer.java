package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The service's state of the rooms, read by raw HTTP as a member ({@link Admin}), independent of the SDK: each
 * room's last seq and revision, its messages by id and its receipts by user.
 */
final class KillNineServer {
  /** A message as the service holds it, with what the store's copy is compared on. */
  record Msg(String id, String roomId, long seq, long rev, String senderId, String text, String clientMessageId,
      boolean deleted) {
    static Msg of(JsonNode m) {
      StringBuilder text = new StringBuilder();
      for (JsonNode p : m.path("parts")) text.append(p.path("text").asText());
      return new Msg(m.get("id").asText(), m.get("roomId").asText(), m.get("seq").asLong(), m.get("rev").asLong(),
          m.get("senderId").asText(), text.toString(), m.path("clientMessageId").asText(null),
          !m.path("deletedAt").isMissingNode() && !m.path("deletedAt").isNull());
    }
  }

  /** A room's state: its last seq, its revision, its messages by id and by seq, its receipts by user. */
  record Room(long lastMessageSeq, long rev, Map<String, Msg> byId, Map<Long, Msg> bySeq,
      Map<String, JsonNode> receipts) {}

  private final Admin admin;
  private final String token;

  KillNineServer(Admin admin, String memberToken) {
    this.admin = admin;
    this.token = memberToken;
  }

  /** Reads the room's state; a message sent meanwhile may be missing from it, never a change older than its rev. */
  Room room(String roomId) throws Exception {
    Map<String, Msg> byId = new LinkedHashMap<>();
    Map<Long, Msg> bySeq = new LinkedHashMap<>();
    long after = 0;
    while (true) {
      JsonNode page = get("/v1/chat/rooms/" + roomId + "/messages?limit=100&after=" + after);
      for (JsonNode m : page.get("messages")) {
        Msg msg = Msg.of(m);
        byId.put(msg.id(), msg);
        bySeq.put(msg.seq(), msg);
        after = msg.seq();
      }
      if (!page.get("hasMore").asBoolean()) break;
    }
    long lastSeq = -1;
    long rev = -1;
    for (JsonNode r : get("/v1/chat/rooms").get("rooms")) {
      if (r.get("id").asText().equals(roomId)) {
        lastSeq = r.get("lastMessageSeq").asLong();
        rev = r.get("rev").asLong();
      }
    }
    Map<String, JsonNode> receipts = new LinkedHashMap<>();
    for (JsonNode r : get("/v1/chat/rooms/" + roomId + "/receipts").get("receipts")) {
      receipts.put(r.get("userId").asText(), r);
    }
    return new Room(lastSeq, rev, byId, bySeq, receipts);
  }

  private JsonNode get(String path) throws Exception {
    Admin.Answer a = admin.call("GET", path, null, Admin.bearer(token));
    assertEquals(200, a.status(), () -> path + ": " + a.body());
    return a.body();
  }
}
