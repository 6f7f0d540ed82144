package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.batch;
import static dev.svc.chat.store.sqlite.Fixtures.message;
import static dev.svc.chat.store.sqlite.Fixtures.range;
import static dev.svc.chat.store.sqlite.Fixtures.seqs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Collections;

import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreWrite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which pages the store answers: only those inside a room's stored range, which runs without a gap from the
 * oldest message kept up to the room's seq watermark.
 */
class StoredRangeTest {
  @TempDir File dir;
  private ChatStore store;

  @BeforeEach
  void open() throws Exception {
    store = SqliteChatStore.provider(dir).open("alice");
  }

  @AfterEach
  void close() {
    store.close();
  }

  private long lowSeq(String roomId) throws Exception {
    return Fixtures.lowSeq(dir, "alice", roomId);
  }

  @Test
  void theLatestPageIsAnsweredWhenTheRangeHoldsIt() throws Exception {
    store.write(batch("r", 51, 100)); // the latest page of a room seen for the first time
    assertEquals(51, lowSeq("r"));
    MessagePage page = store.messages("r", MessageQuery.latest(50));
    assertEquals(range(51, 100), seqs(page));
    assertTrue(page.hasMore(), "older messages exist");
    assertTrue(page.fromStore());
    assertEquals(range(81, 100), seqs(store.messages("r", MessageQuery.latest(20))));
    assertNull(store.messages("r", MessageQuery.latest(51)), "seq 50 is not stored");
  }

  @Test
  void aRoomStoredFromItsFirstMessageAnswersAnyLatestPage() throws Exception {
    store.write(batch("r", 1, 10));
    MessagePage page = store.messages("r", MessageQuery.latest(50));
    assertEquals(range(1, 10), seqs(page));
    assertFalse(page.hasMore());
  }

  @Test
  void pagesBeforeASeq() throws Exception {
    store.write(batch("r", 51, 100));
    MessagePage page = store.messages("r", MessageQuery.before(60, 5));
    assertEquals(range(55, 59), seqs(page));
    assertTrue(page.hasMore());
    assertEquals(range(51, 55), seqs(store.messages("r", MessageQuery.before(56, 5))));
    assertNull(store.messages("r", MessageQuery.before(55, 5)), "seq 50 is not stored");
    assertEquals(range(96, 100), seqs(store.messages("r", MessageQuery.before(101, 5))));
    assertNull(store.messages("r", MessageQuery.before(102, 5)), "seq 101 lies past the watermark");
  }

  @Test
  void aPageBeforeTheFirstMessageIsEmptyAndSaysNoMore() throws Exception {
    store.write(batch("r", 1, 10));
    MessagePage page = store.messages("r", MessageQuery.before(4, 5));
    assertEquals(range(1, 3), seqs(page));
    assertFalse(page.hasMore());
    MessagePage none = store.messages("r", MessageQuery.before(1, 5));
    assertEquals(Collections.emptyList(), none.messages());
    assertFalse(none.hasMore());
  }

  @Test
  void pagesAfterASeqOnlyUpToTheWatermark() throws Exception {
    store.write(batch("r", 51, 100));
    MessagePage page = store.messages("r", MessageQuery.after(90, 10));
    assertEquals(range(91, 100), seqs(page));
    assertTrue(page.hasMore(), "the service may hold newer ones: the next page asks it");
    assertEquals(range(52, 53), seqs(store.messages("r", MessageQuery.after(51, 2))));
    assertNull(store.messages("r", MessageQuery.after(91, 10)), "seq 101 lies past the watermark");
    assertNull(store.messages("r", MessageQuery.after(40, 10)), "seqs 41..50 are not stored");
  }

  @Test
  void anOlderPageFetchedLaterExtendsTheRange() throws Exception {
    store.write(batch("r", 51, 100));
    StoreWrite older = new StoreWrite();
    for (long s = 41; s <= 50; s++) older.message(message("r", s, s));
    store.write(older);
    assertEquals(41, lowSeq("r"));
    assertEquals(range(41, 100), seqs(store.messages("r", MessageQuery.latest(60))));
    assertEquals(range(41, 50), seqs(store.messages("r", MessageQuery.before(51, 10))));
    assertNull(store.messages("r", MessageQuery.before(51, 11)));
  }

  @Test
  void aWatermarkRaisedOverAGapKeepsOnlyTheMessagesAboveIt() throws Exception {
    store.write(batch("r", 1, 10));
    StoreWrite w = new StoreWrite(); // 11..14 never stored, yet the watermark goes to 20
    for (long s = 15; s <= 20; s++) w.message(message("r", s, s));
    store.write(w.watermarks("r", 20, 20));
    assertEquals(15, lowSeq("r"));
    assertEquals(range(15, 20), seqs(store.messages("r", MessageQuery.latest(6))));
    assertNull(store.messages("r", MessageQuery.latest(7)));
    assertNull(store.messages("r", MessageQuery.before(15, 1)));
    // the gap filled later joins both runs
    StoreWrite fill = new StoreWrite();
    for (long s = 11; s <= 14; s++) fill.message(message("r", s, s));
    store.write(fill);
    assertEquals(1, lowSeq("r"));
    assertEquals(range(1, 20), seqs(store.messages("r", MessageQuery.latest(50))));
  }

  @Test
  void aWatermarkRaisedOverStoredMessagesKeepsTheRange() throws Exception {
    store.write(batch("r", 1, 10));
    StoreWrite ahead = new StoreWrite(); // live messages stored before the watermark reaches them
    for (long s = 11; s <= 12; s++) ahead.message(message("r", s, s));
    store.write(ahead);
    assertEquals(range(1, 10), seqs(store.messages("r", MessageQuery.latest(50))), "ahead of the watermark");
    assertNull(store.messages("r", MessageQuery.after(8, 4)), "the page would end past the watermark");
    assertNull(store.messages("r", MessageQuery.before(13, 2)), "the page would start past the watermark");
    store.write(new StoreWrite().watermarks("r", 12, 12));
    assertEquals(1, lowSeq("r"));
    assertEquals(range(1, 12), seqs(store.messages("r", MessageQuery.latest(50))));
  }

  @Test
  void noWatermarkNoPage() throws Exception {
    store.write(new StoreWrite().message(message("r", 1, 1)));
    assertNull(store.messages("r", MessageQuery.latest(1)));
    assertNull(store.messages("unknown", MessageQuery.latest(1)));
  }

  @Test
  void aRoomWithoutMessagesAnswersAnEmptyPage() throws Exception {
    store.write(new StoreWrite().watermarks("r", 0, 0));
    MessagePage page = store.messages("r", MessageQuery.latest(50));
    assertEquals(Collections.emptyList(), page.messages());
    assertFalse(page.hasMore());
    assertTrue(page.fromStore());
  }

  @Test
  void aLongRunIsFoundWhenItSpansManyReadSteps() throws Exception {
    StoreWrite w = new StoreWrite();
    for (long s = 1; s <= 700; s++) w.message(message("r", s, s));
    store.write(w);
    store.write(new StoreWrite().watermarks("r", 700, 700));
    assertEquals(1, lowSeq("r"));
    assertEquals(range(601, 700), seqs(store.messages("r", MessageQuery.latest(100))));
    MessagePage first = store.messages("r", MessageQuery.before(51, 50));
    assertEquals(range(1, 50), seqs(first));
    assertFalse(first.hasMore());
  }
}
