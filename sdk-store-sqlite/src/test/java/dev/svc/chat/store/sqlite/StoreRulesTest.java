package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.T0;
import static dev.svc.chat.store.sqlite.Fixtures.batch;
import static dev.svc.chat.store.sqlite.Fixtures.message;
import static dev.svc.chat.store.sqlite.Fixtures.range;
import static dev.svc.chat.store.sqlite.Fixtures.room;
import static dev.svc.chat.store.sqlite.Fixtures.roomIds;
import static dev.svc.chat.store.sqlite.Fixtures.seqs;
import static dev.svc.chat.store.sqlite.Fixtures.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredSend;
import dev.svc.chat.store.StoredState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules of the store (store-design, ChatStore's Javadoc) on a real SQLite database. */
class StoreRulesTest {
  @TempDir File dir;
  private ChatStore store;

  @AfterEach
  void close() {
    if (store != null) store.close();
  }

  private ChatStore open(int maxMessagesPerRoom, int maxRooms) throws StoreException {
    store = SqliteChatStore.builder(dir).maxMessagesPerRoom(maxMessagesPerRoom).maxRooms(maxRooms).build()
        .open("alice");
    return store;
  }

  private ChatStore open() throws StoreException {
    return open(1000, 1000);
  }

  @Test
  void anOlderRevisionNeverReplacesANewerOne() throws Exception {
    open();
    Message v5 = message("r", 1, 5).newBuilder().parts(Collections.singletonList(MessagePart.text("edited"))).build();
    store.write(new StoreWrite().message(v5).watermarks("r", 1, 5));
    store.write(new StoreWrite().message(message("r", 1, 3))); // older: ignored
    store.write(new StoreWrite().message(message("r", 1, 5))); // the same revision: ignored
    assertEquals(Collections.singletonList(v5), store.messages("r", MessageQuery.latest(10)).messages());

    Message v6 = message("r", 1, 6).newBuilder().deletedAt(T0 + 99).parts(Collections.<MessagePart>emptyList()).build();
    store.write(new StoreWrite().message(v6));
    assertEquals(Collections.singletonList(v6), store.messages("r", MessageQuery.latest(10)).messages());
  }

  @Test
  void aStoredMessageReadsBackEqualToWhatWasWritten() throws Exception {
    open();
    Message m = message("r", 1, 4).newBuilder()
        .parts(Arrays.asList(MessagePart.text("a \"quoted\" é 😀"),
            MessagePart.builder("poll").rawField("options", "[\"x\",{\"y\":1}]").build()))
        .editedAt(T0 + 5).deletedAt(null).reaction("👍", Arrays.asList("bob", "carol")).reaction("🎉",
            Collections.singletonList("dan"))
        .build();
    store.write(new StoreWrite().message(m).watermarks("r", 1, 4));
    assertEquals(m, store.messages("r", MessageQuery.latest(1)).messages().get(0));
  }

  @Test
  void aReceiptNeverMovesBackwards() throws Exception {
    open();
    store.write(new StoreWrite().receipt(Receipt.of("r", "bob", "m5", 5, T0 + 5)));
    store.write(new StoreWrite().receipt(Receipt.of("r", "bob", "m3", 3, T0 + 9)));
    assertEquals(Collections.singletonList(Receipt.of("r", "bob", "m5", 5, T0 + 5)), store.load().receipts());
    store.write(new StoreWrite().receipt(Receipt.of("r", "bob", "m7", 7, T0 + 10)));
    assertEquals(Collections.singletonList(Receipt.of("r", "bob", "m7", 7, T0 + 10)), store.load().receipts());
  }

  @Test
  void aWriteThatFailsHalfWayLeavesNothingOfIt() throws Exception {
    open();
    store.write(batch("r", 1, 5).receipt(Receipt.of("r", "bob", "r-m2", 2, T0)).writtenAt(T0));
    StoredState before = store.load();

    // the rooms, the messages 6..8 and a receipt go in first; the message that takes seq 7 under another id
    // violates UNIQUE(room_id, seq) half way through the messages
    Message clash = message("r", 7, 9).newBuilder().id("another-id").build();
    StoreWrite w = batch("r", 6, 8).room(room("r", T0 + 50)).room(room("s", T0)).message(clash)
        .receipt(Receipt.of("r", "bob", "r-m8", 8, T0 + 1)).send(send("c1", 1)).writtenAt(T0 + 100);
    StoreException e = assertThrows(StoreException.class, () -> store.write(w));
    assertEquals(StoreException.Kind.IO, e.kind());

    assertStateEquals(before, store.load());
    assertEquals(range(1, 5), seqs(store.messages("r", MessageQuery.latest(10))));
    assertNull(store.messages("r", MessageQuery.after(5, 1)));
  }

  @Test
  void aFailureAfterTheMessagesUndoesThem() throws Exception {
    store = new dev.svc.chat.store.sql.SqlChatStore(new FailingDatabase(
        new JdbcSqlDatabase(Fixtures.connect(new File(dir, "seam.db"))), "UPDATE rooms SET seq_watermark"), 10, 10);
    store.write(new StoreWrite().room(room("r", T0)));
    StoreException e = assertThrows(StoreException.class, () -> store.write(batch("r", 1, 5).writtenAt(T0)));
    assertEquals("planted", e.getMessage());
    StoredState state = store.load();
    assertEquals(-1, state.rooms().get(0).seq(), "no watermark");
    assertEquals(0, state.writtenAt());
    assertTrue(state.changedAbove().isEmpty(), "no message: " + state.changedAbove());
  }

  @Test
  void aRoomKeepsItsNewestMessagesUpToItsBound() throws Exception {
    open(5, 1000);
    store.write(batch("r", 1, 8));
    assertEquals(4, Fixtures.lowSeq(dir, "alice", "r"));
    assertEquals(range(4, 8), seqs(store.messages("r", MessageQuery.latest(5))));
    assertNull(store.messages("r", MessageQuery.latest(6)), "seq 3 was evicted");
    assertNull(store.messages("r", MessageQuery.before(4, 1)));
    // an older page fetched again from the service is stored, and evicted again past the bound
    store.write(new StoreWrite().message(message("r", 3, 3)));
    assertEquals(range(4, 8), seqs(store.messages("r", MessageQuery.latest(5))));
    // a new message pushes the oldest out
    store.write(batch("r", 9, 9));
    assertEquals(5, Fixtures.lowSeq(dir, "alice", "r"));
    assertEquals(range(5, 9), seqs(store.messages("r", MessageQuery.latest(5))));
    assertNull(store.messages("r", MessageQuery.latest(6)));
  }

  @Test
  void theLeastRecentlyActiveRoomsGoBeyondTheBound() throws Exception {
    open(1000, 2);
    store.write(new StoreWrite().room(room("a", T0 + 1)).message(message("a", 1, 1)).watermarks("a", 1, 1)
        .receipt(Receipt.of("a", "bob", "a-m1", 1, T0)));
    store.write(new StoreWrite().room(room("b", T0 + 200_000)));
    // c's own last message is old, but a newer message of it is stored: its activity is that message's time
    store.write(new StoreWrite().room(room("c", T0)).message(message("c", 300, 300)).watermarks("c", 300, 300));
    assertEquals(Arrays.asList("c", "b"), roomIds(store));
    StoredState state = store.load();
    assertTrue(state.receipts().isEmpty(), "a's receipt went with it: " + state.receipts());
    for (Message m : state.changedAbove()) assertFalse(m.roomId().equals("a"), "a's message went with it");
    try (java.sql.Connection c = Fixtures.connect(SqliteChatStore.provider(dir).file("alice"));
        java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM messages WHERE room_id = 'a'")) {
      rs.next();
      assertEquals(0, rs.getInt(1));
    }
  }

  @Test
  void clearDeletesEverythingAndTheStoreStaysOpen() throws Exception {
    open();
    store.write(batch("r", 1, 3).room(room("r", T0)).receipt(Receipt.of("r", "bob", "r-m1", 1, T0))
        .send(send("c1", 1)).writtenAt(T0));
    store.clear();
    StoredState state = store.load();
    assertTrue(state.isEmpty());
    assertTrue(state.changedAbove().isEmpty());
    assertEquals(0, state.writtenAt());
    assertNull(store.messages("r", MessageQuery.latest(10)));
    store.write(batch("r", 1, 1));
    assertEquals(range(1, 1), seqs(store.messages("r", MessageQuery.latest(10))));
  }

  @Test
  void removeRoomDeletesItsMessagesAndReceiptsOnly() throws Exception {
    open();
    store.write(batch("r", 1, 3).room(room("r", T0)).receipt(Receipt.of("r", "bob", "r-m1", 1, T0)));
    store.write(batch("s", 1, 2).room(room("s", T0)).receipt(Receipt.of("s", "bob", "s-m1", 1, T0)));
    store.write(new StoreWrite().removeRoom("r"));
    assertEquals(Collections.singletonList("s"), roomIds(store));
    assertNull(store.messages("r", MessageQuery.latest(10)));
    assertEquals(range(1, 2), seqs(store.messages("s", MessageQuery.latest(10))));
    assertEquals(Collections.singletonList(Receipt.of("s", "bob", "s-m1", 1, T0)), store.load().receipts());
    store.write(batch("r", 3, 3)); // the room comes back from scratch, its old messages gone
    assertNull(store.messages("r", MessageQuery.latest(2)));
    assertEquals(range(3, 3), seqs(store.messages("r", MessageQuery.latest(1))));
  }

  @Test
  void loadReturnsRoomsReceiptsChangesAboveTheRevisionWatermarkAndSendsInOrder() throws Exception {
    open();
    StoreWrite w = new StoreWrite().room(room("r", T0 + 10));
    for (long s = 1; s <= 5; s++) w.message(message("r", s, s));
    w.watermarks("r", 5, 3).watermarks("new", 0, 0).receipt(Receipt.of("r", "bob", "r-m4", 4, T0))
        .send(send("c3", 3)).send(send("c1", 1)).send(send("c2", 2)).writtenAt(T0 + 42);
    store.write(w);
    store.write(new StoreWrite().endSend("r", "c2"));

    StoredState state = store.load();
    assertEquals(T0 + 42, state.writtenAt());
    assertEquals(Arrays.asList(message("r", 4, 4), message("r", 5, 5)), state.changedAbove());
    assertEquals(Collections.singletonList(Receipt.of("r", "bob", "r-m4", 4, T0)), state.receipts());
    assertEquals(Arrays.asList("c1", "c3"), Arrays.asList(state.sends().get(0).clientMessageId(),
        state.sends().get(1).clientMessageId()));
    assertEquals(Collections.singletonList(MessagePart.text("hello c1")), state.sends().get(0).parts());
    assertEquals("bob", state.sends().get(0).senderId());
    StoredRoom r = stored(store, "r");
    assertEquals(room("r", T0 + 10), r.room());
    assertEquals(5, r.seq());
    assertEquals(3, r.rev());
    StoredRoom created = stored(store, "new");
    assertEquals(Room.builder().id("new").build(), created.room(), "a watermark stores a room by its id only");
    assertEquals(0, created.seq());
    assertEquals(0, created.rev());
  }

  @Test
  void roomsComeMostRecentlyActiveFirst() throws Exception {
    open();
    store.write(new StoreWrite().room(room("old", T0 + 1_000)).room(room("new", T0 + 3_000)));
    store.write(new StoreWrite().room(room("mid", T0 + 2_000)));
    assertEquals(Arrays.asList("new", "mid", "old"), roomIds(store));
    store.write(batch("old", 1, 9)); // its newest message (T0 + 9 s) is newer than any room's last message
    assertEquals(Arrays.asList("old", "new", "mid"), roomIds(store));
  }

  @Test
  void aClosedStoreFails() throws Exception {
    open();
    store.close();
    store.close(); // twice does nothing
    assertEquals(StoreException.Kind.IO, assertThrows(StoreException.class, () -> store.load()).kind());
    assertEquals(StoreException.Kind.IO,
        assertThrows(StoreException.class, () -> store.write(batch("r", 1, 1))).kind());
    store = null;
  }

  static StoredSend send(String clientMessageId, long sequence) {
    return new StoredSend("r", clientMessageId, "bob", Collections.singletonList(MessagePart.text("hello " + clientMessageId)),
        T0 + sequence, sequence);
  }

  private static void assertStateEquals(StoredState expected, StoredState actual) {
    assertEquals(expected.rooms().toString(), actual.rooms().toString());
    List<Room> expectedRooms = new java.util.ArrayList<>();
    for (StoredRoom r : expected.rooms()) expectedRooms.add(r.room());
    List<Room> actualRooms = new java.util.ArrayList<>();
    for (StoredRoom r : actual.rooms()) actualRooms.add(r.room());
    assertEquals(expectedRooms, actualRooms);
    assertEquals(expected.receipts(), actual.receipts());
    assertEquals(expected.changedAbove(), actual.changedAbove());
    assertEquals(expected.sends().toString(), actual.sends().toString());
    assertEquals(expected.writtenAt(), actual.writtenAt());
  }
}
