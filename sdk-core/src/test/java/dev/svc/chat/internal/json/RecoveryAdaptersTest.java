package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ChangesPage;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import org.junit.jupiter.api.Test;

/** The room revision on Message and Room, and the answers of the changes and receipts routes. */
class RecoveryAdaptersTest {
  private static final String MESSAGE_HEAD = "{\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":2,";
  private static final String MESSAGE_TAIL = "\"senderId\":\"alice\",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],"
      + "\"clientMessageId\":\"c1\",\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"reactions\":{}}";
  private static final String ROOM = "{\"id\":\"r1\",\"memberIds\":[\"a\"],\"createdAt\":\"2026-11-21T09:00:00.000Z\","
      + "\"lastMessageSeq\":2";

  private static Message message(String revField) throws Exception {
    return MessageJsonAdapter.INSTANCE.fromJson(MESSAGE_HEAD + revField + MESSAGE_TAIL);
  }

  @Test
  void readsAndWritesTheMessageRev() throws Exception {
    Message m = message("\"rev\":9,");
    assertEquals(9, m.rev());
    String json = MessageJsonAdapter.INSTANCE.toJson(m);
    assertTrue(json.contains("\"seq\":2,\"rev\":9,"), json);
    assertEquals(m, MessageJsonAdapter.INSTANCE.fromJson(json));
    assertEquals(9, m.newBuilder().build().rev());
    assertTrue(m.toString().contains("rev=9"), m.toString());
  }

  @Test
  void aMissingOrNullRevReadsAsZero() throws Exception {
    // A service older than revisions sends none; a message built locally has none either.
    assertEquals(0, message("").rev());
    assertEquals(0, message("\"rev\":null,").rev());
    assertEquals(0, Message.builder().id("m").roomId("r").senderId("s").clientMessageId("c").build().rev());
    assertThrows(JsonDataException.class, () -> message("\"rev\":\"x\","));
    assertThrows(JsonDataException.class, () -> message("\"rev\":-1,"));
  }

  @Test
  void revIsPartOfMessageEquality() throws Exception {
    Message older = message("\"rev\":3,");
    Message newer = older.newBuilder().rev(4).build();
    assertNotEquals(older, newer);
    assertNotEquals(older.hashCode(), newer.hashCode());
    assertEquals(older, newer.newBuilder().rev(3).build());
    assertThrows(IllegalArgumentException.class, () -> older.newBuilder().rev(-1));
  }

  @Test
  void readsAndWritesTheRoomRev() throws Exception {
    Room room = RoomJsonAdapter.INSTANCE.fromJson(ROOM + ",\"rev\":12}");
    assertEquals(12, room.rev());
    String json = RoomJsonAdapter.INSTANCE.toJson(room);
    assertTrue(json.endsWith(",\"rev\":12}"), json);
    assertEquals(room, RoomJsonAdapter.INSTANCE.fromJson(json));
    assertEquals(room, room.newBuilder().build());
    assertNotEquals(room, room.newBuilder().rev(13).build());
    assertNotEquals(room.hashCode(), room.newBuilder().rev(13).build().hashCode());
    assertTrue(room.toString().contains("rev=12"), room.toString());
    assertEquals(0, RoomJsonAdapter.INSTANCE.fromJson(ROOM + "}").rev());
    assertEquals(0, RoomJsonAdapter.INSTANCE.fromJson(ROOM + ",\"rev\":null}").rev());
    assertThrows(IllegalArgumentException.class, () -> Room.builder().rev(-1));
  }

  @Test
  void readsAChangesPage() throws Exception {
    String m3 = MESSAGE_HEAD + "\"rev\":3," + MESSAGE_TAIL;
    String m5 = m3.replace("\"m1\"", "\"m2\"").replace("\"rev\":3", "\"rev\":5")
        .replace("\"reactions\":{}", "\"deletedAt\":\"2026-11-21T10:01:00.000Z\",\"reactions\":{}");
    ChangesPage page = RecoveryAdapters.CHANGES_PAGE.fromJson("{\"messages\":[" + m3 + "," + m5 + "],\"rev\":7,"
        + "\"hasMore\":true,\"later\":{\"x\":1}}");
    assertEquals(7, page.rev());
    assertTrue(page.hasMore());
    assertEquals(2, page.messages().size());
    assertEquals(3, page.messages().get(0).rev());
    assertEquals("m2", page.messages().get(1).id());
    assertTrue(page.messages().get(1).isDeleted());
    assertThrows(UnsupportedOperationException.class, () -> page.messages().clear());
    assertEquals(page, new ChangesPage(page.messages(), 7, true));
    assertNotEquals(page, new ChangesPage(page.messages(), 8, true));

    ChangesPage empty = RecoveryAdapters.CHANGES_PAGE.fromJson("{\"messages\":[],\"rev\":0,\"hasMore\":false}");
    assertTrue(empty.messages().isEmpty());
    assertFalse(empty.hasMore());
    assertEquals(0, empty.rev());
  }

  @Test
  void aChangesPageWithoutRevIsAnError() {
    assertThrows(JsonDataException.class,
        () -> RecoveryAdapters.CHANGES_PAGE.fromJson("{\"messages\":[],\"hasMore\":false}"));
    assertThrows(NullPointerException.class, () -> new ChangesPage(null, 0, false));
    assertThrows(IllegalArgumentException.class, () -> new ChangesPage(Collections.emptyList(), -1, false));
  }

  @Test
  void readsTheReceipts() throws Exception {
    List<Receipt> receipts = RecoveryAdapters.RECEIPT_LIST.fromJson("{\"receipts\":["
        + "{\"roomId\":\"r\",\"userId\":\"alice\",\"messageId\":\"m1\",\"seq\":1,\"readAt\":\"2026-11-21T10:00:00.000Z\"},"
        + "{\"roomId\":\"r\",\"userId\":\"bob\",\"messageId\":\"m2\",\"seq\":2,\"readAt\":\"2026-11-21T10:00:01.000Z\"}"
        + "],\"extra\":[]}");
    assertEquals(2, receipts.size());
    assertEquals(Receipt.of("r", "bob", "m2", 2, IsoTimestamps.parse("2026-11-21T10:00:01.000Z")), receipts.get(1));
    assertThrows(UnsupportedOperationException.class, () -> receipts.clear());
    assertTrue(RecoveryAdapters.RECEIPT_LIST.fromJson("{\"receipts\":[]}").isEmpty());
    assertTrue(RecoveryAdapters.RECEIPT_LIST.fromJson("{}").isEmpty());
  }
}
