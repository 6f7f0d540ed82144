package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Collections;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.EventType;
import dev.svc.chat.MessagePart;
import dev.svc.chat.PresenceEvent;
import dev.svc.chat.Receipt;
import dev.svc.chat.TypingEvent;
import dev.svc.chat.internal.GatewayEvents;
import org.junit.jupiter.api.Test;

class MessagingAdaptersTest {
  private static final long T = IsoTimestamps.parse("2026-11-21T10:00:00.250Z");

  @Test
  void readsAReceiptIgnoringUnknownFields() throws Exception {
    Receipt r = MessagingAdapters.RECEIPT.fromJson("{\"roomId\":\"r\",\"userId\":\"bob\",\"messageId\":\"m\","
        + "\"seq\":4,\"readAt\":\"2026-11-21T10:00:00.250Z\",\"later\":[1]}");
    assertEquals(Receipt.of("r", "bob", "m", 4, T), r);
  }

  @Test
  void readsTypingAndPresence() throws Exception {
    assertEquals(TypingEvent.of("r", "alice", true),
        MessagingAdapters.TYPING.fromJson("{\"roomId\":\"r\",\"userId\":\"alice\",\"isTyping\":true}"));
    assertEquals(PresenceEvent.of("dave", false, T),
        MessagingAdapters.PRESENCE.fromJson("{\"userId\":\"dave\",\"online\":false,\"at\":\"2026-11-21T10:00:00.250Z\"}"));
    assertEquals(Arrays.asList("a", "b"), MessagingAdapters.ONLINE.fromJson("{\"online\":[\"a\",\"b\"]}"));
    assertEquals(Collections.emptyList(), MessagingAdapters.ONLINE.fromJson("{}"));
  }

  @Test
  void aMissingRequiredFieldIsAnError() {
    assertThrows(JsonDataException.class, () -> MessagingAdapters.RECEIPT.fromJson(
        "{\"roomId\":\"r\",\"userId\":\"bob\",\"seq\":4,\"readAt\":\"2026-11-21T10:00:00.250Z\"}"));
    assertThrows(JsonDataException.class, () -> MessagingAdapters.TYPING.fromJson("{\"roomId\":\"r\",\"userId\":\"a\"}"));
    assertThrows(JsonDataException.class, () -> MessagingAdapters.PRESENCE.fromJson("{\"online\":true,\"at\":1}"));
    // seq 0 too, as the other adapters' checks do (found by fuzzing: it was the Receipt's IllegalArgumentException)
    assertThrows(JsonDataException.class, () -> MessagingAdapters.RECEIPT.fromJson(
        "{\"roomId\":\"r\",\"userId\":\"bob\",\"messageId\":\"m\",\"seq\":0,\"readAt\":1}"));
  }

  @Test
  void writesTheRequestBodies() {
    assertEquals("{\"parts\":[{\"type\":\"text\",\"text\":\"hi \\\"you\\\"\"}]}",
        MessagingAdapters.partsBody(Collections.singletonList(MessagePart.text("hi \"you\""))));
    assertEquals("{\"roomId\":\"r\",\"isTyping\":false}", MessagingAdapters.typingBody("r", false));
  }

  @Test
  void everyMessagingEventIsRegistered() {
    for (EventType<?> type : Arrays.<EventType<?>>asList(EventType.NEW_MESSAGE, EventType.MESSAGE_UPDATED,
        EventType.TYPING, EventType.TENANT_PRESENCE, EventType.ROOM_READ)) {
      GatewayEvents.Decoder<?> decoder = GatewayEvents.STANDARD.forName(type.name());
      assertNotNull(decoder, type.name());
      assertSame(type, decoder.type);
    }
  }
}
