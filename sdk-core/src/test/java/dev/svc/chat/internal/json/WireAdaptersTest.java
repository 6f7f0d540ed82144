package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ApiException;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Room;
import org.junit.jupiter.api.Test;

class WireAdaptersTest {
  private static final String MESSAGE = "{\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":7,\"senderId\":\"alice\","
      + "\"parts\":[{\"type\":\"text\",\"text\":\"hi\"},"
      + "{\"type\":\"image\",\"url\":\"https://x/y.png\",\"size\":{\"w\":3,\"h\":4},\"n\":12345678901234567890}],"
      + "\"clientMessageId\":\"c1\",\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"editedAt\":\"2026-11-21T10:00:01.500Z\","
      + "\"deletedAt\":null,\"reactions\":{\"\uD83D\uDC4D\":[\"bob\",\"carol\"]},\"futureField\":{\"x\":[1]}}";

  /** Found by fuzzing (JsonAdaptersFuzzTest): a negative lastMessageSeq or rev is a JsonDataException, not Room's IllegalArgumentException. */
  @Test
  void aRoomWithANegativeSeqOrRevIsMalformed() {
    for (String field : new String[] {"lastMessageSeq", "rev"}) {
      String room = "{\"id\":\"r1\",\"" + field + "\":-1}";
      assertThrows(JsonDataException.class, () -> RoomJsonAdapter.INSTANCE.fromJson(Json.reader(room)), field);
    }
  }

  /** Found by fuzzing (JsonAdaptersFuzzTest): a numeric timestamp no ISO-8601 year can spell is refused on read. */
  @Test
  void aNumericTimestampBeyondYear9999IsRefused() {
    String room = "{\"id\":\"r1\",\"memberIds\":[],\"createdAt\":1019832205193220519}";
    assertThrows(JsonDataException.class, () -> RoomJsonAdapter.INSTANCE.fromJson(Json.reader(room)));
    String receipt = "{\"roomId\":\"r\",\"userId\":\"u\",\"messageId\":\"m\",\"seq\":1,\"readAt\":-62167219200001}";
    assertThrows(JsonDataException.class, () -> MessagingAdapters.RECEIPT.fromJson(Json.reader(receipt)));
  }

  /**
   * Found by fuzzing (FastMessageReaderFuzzTest): an unknown field whose value is not JSON is malformed JSON
   * (an IOException), not an IllegalArgumentException from the part's builder.
   */
  @Test
  void aPartFieldThatIsNotJsonIsMalformedJson() {
    String part = "{\"type\":\"file\",\"x\":[{\"type\":\"text\"\"b\"}]}";
    assertThrows(com.squareup.moshi.JsonEncodingException.class,
        () -> MessagePartJsonAdapter.INSTANCE.fromJson(Json.reader(part)));
    // an acknowledgement keeps its other fields raw: one that is not JSON is refused, not kept
    assertThrows(JsonDataException.class, () -> AckReply.parse("[{\"ok\":true,\"x\":{\"a\" 1}}]"));
  }

  @Test
  void readsAMessageKeepingUnknownPartsAndIgnoringUnknownFields() throws Exception {
    Message m = MessageJsonAdapter.INSTANCE.fromJson(MESSAGE);
    assertEquals("m1", m.id());
    assertEquals("r1", m.roomId());
    assertEquals(7, m.seq());
    assertEquals("alice", m.senderId());
    assertEquals("c1", m.clientMessageId());
    assertEquals(IsoTimestamps.parse("2026-11-21T10:00:00.000Z"), m.createdAt());
    assertEquals(Long.valueOf(IsoTimestamps.parse("2026-11-21T10:00:01.500Z")), m.editedAt());
    assertNull(m.deletedAt());
    assertFalse(m.isDeleted());
    assertEquals(Arrays.asList("bob", "carol"), m.reactions().get("\uD83D\uDC4D"));
    assertEquals(MessagePart.text("hi"), m.parts().get(0));
    MessagePart image = m.parts().get(1);
    assertEquals("image", image.type());
    assertNull(image.text());
    assertEquals("\"https://x/y.png\"", image.rawFields().get("url"));
    assertEquals("{\"w\":3,\"h\":4}", image.rawFields().get("size"));
    assertEquals("12345678901234567890", image.rawFields().get("n"));
    assertEquals("hi", m.text());
  }

  @Test
  void writesUnknownPartsBackAsGiven() throws Exception {
    Message m = MessageJsonAdapter.INSTANCE.fromJson(MESSAGE);
    String json = MessageJsonAdapter.INSTANCE.toJson(m);
    assertTrue(json.contains("{\"type\":\"image\",\"url\":\"https://x/y.png\",\"size\":{\"w\":3,\"h\":4},\"n\":12345678901234567890}"), json);
    assertEquals(m, MessageJsonAdapter.INSTANCE.fromJson(json));
  }

  @Test
  void valuesAreImmutable() throws Exception {
    Message m = MessageJsonAdapter.INSTANCE.fromJson(MESSAGE);
    assertThrows(UnsupportedOperationException.class, () -> m.parts().clear());
    assertThrows(UnsupportedOperationException.class, () -> m.reactions().clear());
    assertThrows(UnsupportedOperationException.class, () -> m.reactions().get("\uD83D\uDC4D").clear());
    assertEquals(m.hashCode(), m.newBuilder().build().hashCode());
    assertEquals(m, m.newBuilder().build());
  }

  @Test
  void refusesAMessageWithoutRequiredFields() {
    assertThrows(JsonDataException.class, () -> MessageJsonAdapter.INSTANCE.fromJson("{\"id\":\"m1\"}"));
    assertThrows(JsonDataException.class,
        () -> MessageJsonAdapter.INSTANCE.fromJson(MESSAGE.replace("\"type\":\"image\",", "")));
  }

  @Test
  void readsADeletedMessage() throws Exception {
    Message m = MessageJsonAdapter.INSTANCE.fromJson("{\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":1,\"senderId\":\"a\","
        + "\"parts\":[],\"clientMessageId\":\"c\",\"createdAt\":\"2026-11-21T10:00:00.000Z\","
        + "\"deletedAt\":\"2026-11-21T10:05:00.000Z\",\"reactions\":{}}");
    assertTrue(m.isDeleted());
    assertTrue(m.parts().isEmpty());
  }

  @Test
  void readsRoomsAndPages() throws Exception {
    List<Room> rooms = ResponseAdapters.ROOM_LIST.fromJson("{\"rooms\":[{\"id\":\"r1\",\"memberIds\":[\"a\",\"b\"],"
        + "\"createdAt\":\"2026-11-21T09:00:00.000Z\",\"lastMessageSeq\":0,\"extra\":true}],\"more\":1}");
    assertEquals(1, rooms.size());
    Room r = rooms.get(0);
    assertEquals("r1", r.id());
    assertNull(r.name());
    assertEquals(Arrays.asList("a", "b"), r.memberIds());
    assertNull(r.lastMessageAt());
    assertEquals(r, RoomJsonAdapter.INSTANCE.fromJson(RoomJsonAdapter.INSTANCE.toJson(r)));

    MessagePage page = ResponseAdapters.MESSAGE_PAGE.fromJson("{\"messages\":[" + MESSAGE + "],\"hasMore\":true}");
    assertTrue(page.hasMore());
    assertEquals("m1", page.messages().get(0).id());
  }

  @Test
  void writesTheSendBody() {
    assertEquals("{\"parts\":[{\"type\":\"text\",\"text\":\"hé \\\"x\\\"\"}],\"clientMessageId\":\"c1\",\"senderId\":\"alice\"}",
        ResponseAdapters.sendMessageBody(Arrays.asList(MessagePart.text("hé \"x\"")), "c1", "alice"));
  }

  @Test
  void mapsErrorBodies() {
    ApiException e = ServiceError.fromHttp(403,
        "{\"error\":{\"code\":\"forbidden\",\"message\":\"Cannot act as another user\"}}");
    assertEquals(403, e.status());
    assertEquals("forbidden", e.code());
    assertEquals("Cannot act as another user", e.getMessage());

    ApiException html = ServiceError.fromHttp(502, "<html>Bad gateway</html>");
    assertEquals("http_502", html.code());
    assertEquals(502, html.status());
    assertEquals("http_500", ServiceError.fromHttp(500, "").code());
    assertEquals("http_400", ServiceError.fromHttp(400, "{\"error\":\"x\"}").code());

    assertEquals(401, new ServiceError("token_expired", "").toApiException().status());
    assertTrue(new ServiceError("token_expired", "").toApiException().isTokenExpired());
    assertEquals(404, new ServiceError("not_found", "x").toApiException().status());
    assertEquals(400, new ServiceError("bad_request", "x").toApiException().status());
  }

  @Test
  void readsConnectErrors() {
    ServiceError e = ServiceError.fromConnectError("{\"message\":\"unauthorized\",\"data\":{\"code\":\"TOKEN_EXPIRED\"}}");
    assertEquals("token_expired", e.code);
    assertEquals(401, e.toApiException().status());
    assertEquals("unauthorized", ServiceError.fromConnectError("{\"message\":\"unauthorized\"}").code);
    assertNull(ServiceError.fromConnectError("{}")); // unreadable: not taken for unauthorized
    assertNull(ServiceError.fromConnectError("[1]"));
    assertNull(ServiceError.fromConnectError("{\"message\":7}"));
    assertEquals("forbidden", ServiceError.fromConnectError("{\"data\":{\"code\":\"forbidden\"}}").code);
    assertEquals(403, ServiceError.fromConnectError("{\"data\":{\"code\":\"forbidden\"}}").toApiException().status());
  }

  @Test
  void parsesAcknowledgements() {
    AckReply ok = AckReply.parse("[{\"ok\":true,\"room\":{\"id\":\"r1\"}}]");
    assertTrue(ok.ok);
    assertEquals("{\"id\":\"r1\"}", ok.field("room"));
    AckReply no = AckReply.parse("[{\"ok\":false,\"error\":{\"code\":\"forbidden\",\"message\":\"not a member\"}}]");
    assertFalse(no.ok);
    assertEquals("forbidden", no.error.code);
    assertThrows(JsonDataException.class, () -> AckReply.parse("[]"));
    assertThrows(JsonDataException.class, () -> AckReply.parse("[1]"));
  }

  @Test
  void rawFieldsAreCheckedWhenSet() {
    assertThrows(IllegalArgumentException.class, () -> MessagePart.builder("x").rawField("a", "{"));
    assertThrows(IllegalArgumentException.class, () -> MessagePart.builder("x").rawField("a", "1 2"));
    assertThrows(IllegalArgumentException.class, () -> MessagePart.builder("x").rawField("type", "1"));
    assertEquals("[1]", MessagePart.builder("x").rawField("a", "[1]").build().rawFields().get("a"));
  }
}
