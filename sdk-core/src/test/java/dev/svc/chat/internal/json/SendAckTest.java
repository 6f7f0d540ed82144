package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Collections;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ApiException;
import dev.svc.chat.MessagePart;
import org.junit.jupiter.api.Test;

/** The send-message payload and the reading of its acknowledgement into a message or REST's typed error. */
class SendAckTest {
  private static final String MESSAGE = "{\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":3,\"rev\":3,\"senderId\":\"alice\","
      + "\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],\"clientMessageId\":\"c1\","
      + "\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"reactions\":{}}";

  @Test
  void payloadCarriesWhatRestSends() {
    assertEquals("{\"roomId\":\"r1\",\"parts\":[{\"type\":\"text\",\"text\":\"a\\\"b\"}],\"clientMessageId\":\"c1\","
        + "\"senderId\":\"alice\"}",
        SendAck.payload("r1", Collections.singletonList(MessagePart.text("a\"b")), "c1", "alice"));
  }

  @Test
  void aPositiveAckIsTheStoredMessage() {
    assertEquals(3, SendAck.read("[{\"ok\":true,\"message\":" + MESSAGE + "}]").seq());
    assertEquals("m1", SendAck.read("[{\"extra\":[1],\"message\":" + MESSAGE + ",\"ok\":true}]").id());
  }

  @Test
  void aNegativeAckIsTheApiExceptionOfRest() {
    ApiException limited = assertThrows(ApiException.class, () -> SendAck.read(
        "[{\"ok\":false,\"error\":{\"code\":\"rate_limited\",\"message\":\"slow\",\"retryAfter\":2}}]"));
    assertEquals(429, limited.status());
    assertEquals("rate_limited", limited.code());
    assertEquals(2_000, limited.retryAfterMillis());
    ApiException forbidden = assertThrows(ApiException.class, () -> SendAck.read(
        "[{\"ok\":false,\"error\":{\"code\":\"forbidden\",\"message\":\"Not a member of this room\"}}]"));
    assertEquals(403, forbidden.status());
    assertEquals(-1, forbidden.retryAfterMillis());
    assertEquals(413, assertThrows(ApiException.class, () -> SendAck.read(
        "[{\"ok\":false,\"error\":{\"code\":\"payload_too_large\",\"message\":\"big\"}}]")).status());
    assertEquals(400, assertThrows(ApiException.class, () -> SendAck.read(
        "[{\"ok\":false,\"error\":{\"code\":\"something_new\",\"message\":\"?\"}}]")).status());
    assertEquals(500, assertThrows(ApiException.class, () -> SendAck.read("[{\"ok\":false}]")).status());
  }

  @Test
  void anAckThatIsNeitherIsMalformed() {
    assertThrows(JsonDataException.class, () -> SendAck.read("[{\"ok\":true}]"));
    assertThrows(JsonDataException.class, () -> SendAck.read("[]"));
    assertThrows(JsonDataException.class, () -> SendAck.read("{\"ok\":true}"));
  }
}
