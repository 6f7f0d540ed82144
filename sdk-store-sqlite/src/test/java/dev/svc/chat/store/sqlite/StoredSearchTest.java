package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Room;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.SearchResult;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreWrite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Searching the stored messages (ChatStore.search) with the service's rules: contract section 11, docs/search.md. */
class StoredSearchTest {
  @TempDir File dir;
  private SqliteChatStore provider;
  private ChatStore store;

  @BeforeEach
  void open() throws Exception {
    provider = SqliteChatStore.provider(dir);
    store = provider.open("alice");
    store.write(new StoreWrite().room(room("r1", "alice", "bob")).room(room("r2", "alice", "carol")));
  }

  @AfterEach
  void close() {
    store.close();
  }

  static Room room(String id, String... members) {
    return Room.builder().id(id).name("Room " + id).memberIds(Arrays.asList(members)).createdAt(T0).rev(1).build();
  }

  static Message text(String roomId, long seq, long createdAt, String sender, String... parts) {
    Message.Builder b = Message.builder().id(roomId + "-m" + seq).roomId(roomId).seq(seq).rev(seq).senderId(sender)
        .clientMessageId("c-" + roomId + "-" + seq).createdAt(createdAt);
    for (String p : parts) b.addPart(MessagePart.text(p));
    return b.build();
  }

  private void put(Message... messages) throws Exception {
    StoreWrite w = new StoreWrite();
    for (Message m : messages) w.message(m);
    store.write(w);
  }

  private List<String> ids(String q) throws Exception {
    return ids(store.search(SearchQuery.of(q), "alice"));
  }

  static List<String> ids(SearchPage page) {
    List<String> out = new ArrayList<>();
    for (SearchResult r : page.results()) out.add(r.message().id());
    return out;
  }

  @Test
  void wordsMatchCaseAndAccentInsensitivelyAllOfThemInAnyPart() throws Exception {
    put(text("r1", 1, T0 + 1, "bob", "Le Café est ouvert"), text("r1", 2, T0 + 2, "bob", "STRASSE", "café"),
        text("r1", 3, T0 + 3, "bob", "Die Straße"));
    assertEquals(Arrays.asList("r1-m2", "r1-m1"), ids("cafe"));
    assertEquals(Arrays.asList("r1-m3", "r1-m2"), ids("strasse"));
    assertEquals(Collections.singletonList("r1-m2"), ids("Straße CAFÉ"), "all words, each in any part");
    assertEquals(Collections.emptyList(), ids("cafe straße ouvert"));
  }

  @Test
  void phrasesMatchConsecutivelyWithinOnePartAndPrefixesMatchWords() throws Exception {
    put(text("r1", 1, T0 + 1, "bob", "the release notes are out"), text("r1", 2, T0 + 2, "bob", "notes of the release"),
        text("r1", 3, T0 + 3, "bob", "the release", "notes later"), text("r1", 4, T0 + 4, "bob", "Deployment done"));
    assertEquals(Collections.singletonList("r1-m1"), ids("\"release notes\""));
    assertEquals(Arrays.asList("r1-m3", "r1-m2", "r1-m1"), ids("release notes"));
    assertEquals(Collections.singletonList("r1-m4"), ids("deploy*"));
    assertEquals(Collections.emptyList(), ids("deploy"), "without * a word matches whole");
    assertEquals(Collections.singletonList("r1-m1"), ids("\"release notes"), "a quote left open runs to the end");
  }

  @Test
  void anEditIsFoundByItsNewTextOnlyAndADeleteNever() throws Exception {
    put(text("r1", 1, T0 + 1, "bob", "first draft"), text("r1", 2, T0 + 2, "bob", "another draft"));
    Message edited = text("r1", 1, T0 + 1, "bob", "final version").newBuilder().rev(5).editedAt(T0 + 9).build();
    Message deleted = text("r1", 2, T0 + 2, "bob").newBuilder().rev(6).deletedAt(T0 + 9).build();
    put(edited, deleted);
    assertEquals(Collections.emptyList(), ids("draft"));
    assertEquals(Collections.singletonList("r1-m1"), ids("final"));
    put(text("r1", 1, T0 + 1, "bob", "first draft")); // an older revision never replaces the stored one
    assertEquals(Collections.emptyList(), ids("draft"));
    SearchResult r = store.search(SearchQuery.of("final"), "alice").results().get(0);
    assertEquals(edited, r.message());
  }

  @Test
  void newestFirstWithSnippetsMarkedAsTheServiceDoes() throws Exception {
    put(text("r1", 1, T0 + 5, "bob", "deploy went fine"), text("r2", 7, T0 + 5, "carol", "Deployer: deploying now"),
        text("r1", 2, T0 + 1, "bob", "an old deploy"));
    SearchPage page = store.search(SearchQuery.of("deploy*"), "alice");
    assertTrue(page.fromStore());
    assertEquals(Arrays.asList("r2-m7", "r1-m1", "r1-m2"), ids(page), "by time, then seq, newest first");
    assertEquals("\u0001Deployer\u0002: \u0001deploying\u0002 now", page.results().get(0).snippet());
    assertEquals("\u0001deploy\u0002 went fine", page.results().get(1).snippet());
    StringBuilder longText = new StringBuilder();
    for (int i = 0; i < 60; i++) longText.append("word").append(i).append(' ');
    longText.append("needle at the end");
    put(text("r1", 3, T0 + 6, "bob", "no match here", longText.toString()));
    String snippet = store.search(SearchQuery.of("needle"), "alice").results().get(0).snippet();
    assertTrue(snippet.endsWith("\u0001needle\u0002 at the end"), snippet);
    assertEquals(200, snippet.codePointCount(0, snippet.length()) - 2, "200 code points, the marks not counted");
  }

  @Test
  void pagesFollowEachOtherWithoutACapAndANewMessageShiftsNothing() throws Exception {
    StoreWrite w = new StoreWrite();
    for (long s = 1; s <= 25; s++) w.message(text("r1", s, T0 + s, "bob", "item " + s));
    store.write(w);
    List<String> all = new ArrayList<>();
    SearchQuery q = SearchQuery.of("item").limit(10);
    SearchPage page = store.search(q, "alice");
    all.addAll(ids(page));
    put(text("r1", 26, T0 + 26, "bob", "item 26")); // newer than the first page: not on the next pages
    while (page.nextCursor() != null) {
      page = store.search(q.after(page.nextCursor()), "alice");
      all.addAll(ids(page));
    }
    List<String> expected = new ArrayList<>();
    for (long s = 25; s >= 1; s--) expected.add("r1-m" + s);
    assertEquals(expected, all);
  }

  @Test
  void messagesOfOneMillisecondArePagedBySeqThenRoom() throws Exception {
    // stored out of order, over several writes: the index's order within a millisecond is arrival's
    put(text("r1", 2, T0 + 5, "bob", "tie 2"), text("r2", 7, T0 + 5, "carol", "tie 7"));
    put(text("r1", 1, T0 + 5, "bob", "tie 1"), text("r2", 2, T0 + 5, "carol", "tie 2"),
        text("r1", 9, T0 + 4, "bob", "tie older"));
    put(text("r1", 3, T0 + 5, "bob", "tie 3"), text("r2", 8, T0 + 6, "carol", "tie newer"));
    List<String> all = new ArrayList<>();
    SearchQuery q = SearchQuery.of("tie").limit(2);
    for (SearchPage page = store.search(q, "alice"); ; page = store.search(q.after(page.nextCursor()), "alice")) {
      all.addAll(ids(page));
      if (page.nextCursor() == null) break;
    }
    assertEquals(Arrays.asList("r2-m8", "r2-m7", "r1-m3", "r2-m2", "r1-m2", "r1-m1", "r1-m9"), all);
  }

  @Test
  void narrowsByRoomAndSender() throws Exception {
    put(text("r1", 1, T0 + 1, "bob", "lunch?"), text("r2", 1, T0 + 2, "carol", "lunch!"),
        text("r2", 2, T0 + 3, "alice", "lunch."));
    assertEquals(Arrays.asList("r2-m2", "r2-m1"), ids(store.search(SearchQuery.of("lunch").room("r2"), "alice")));
    assertEquals(Collections.singletonList("r2-m1"),
        ids(store.search(SearchQuery.of("lunch").sender("carol"), "alice")));
  }

  @Test
  void onlyTheUsersCurrentRoomsAreSearched() throws Exception {
    put(text("r1", 1, T0 + 1, "bob", "secret plan"), text("r2", 1, T0 + 2, "carol", "secret plan"));
    store.write(new StoreWrite().room(room("r2", "carol", "dave"))); // alice is no member any more
    assertEquals(Collections.singletonList("r1-m1"), ids("secret"));
    store.write(new StoreWrite().removeRoom("r1")); // a room the user left is removed from the store
    assertEquals(Collections.emptyList(), ids("secret"));
    // a member id that only contains alice's, or is contained in it, is not alice
    store.write(new StoreWrite().room(room("r3", "alice2", "xalice", "al\"ice")));
    put(text("r3", 1, T0 + 3, "bob", "secret plan"));
    assertEquals(Collections.emptyList(), ids("secret"));
    assertEquals(Collections.singletonList("r3-m1"), ids(store.search(SearchQuery.of("secret"), "al\"ice")));
  }

  @Test
  void aMessageOfARoomNotListedYetIsSearched() throws Exception {
    put(text("r9", 1, T0 + 1, "bob", "before the listing")); // its room row knows no members yet
    assertEquals(Collections.singletonList("r9-m1"), ids("listing"));
  }

  @Test
  void evictedAndClearedMessagesLeaveTheIndex() throws Exception {
    store.close();
    store = SqliteChatStore.builder(dir).maxMessagesPerRoom(3).build().open("alice");
    StoreWrite w = new StoreWrite();
    for (long s = 1; s <= 5; s++) w.message(text("r1", s, T0 + s, "bob", "kept " + s));
    store.write(w);
    assertEquals(Arrays.asList("r1-m5", "r1-m4", "r1-m3"), ids("kept"));
    assertEquals(3, Fixtures.count(dir, "alice", "SELECT count(*) FROM message_search"), "evicted rows' words went");
    store.clear();
    assertEquals(Collections.emptyList(), ids("kept"));
    assertEquals(0, Fixtures.count(dir, "alice", "SELECT count(*) FROM message_search"));
  }

  @Test
  void aLargeWriteWithEvictionsAndEditsLeavesTheIndexExact() throws Exception {
    store.close();
    store = SqliteChatStore.builder(dir).maxMessagesPerRoom(100).build().open("alice");
    StoreWrite first = new StoreWrite();
    for (long s = 1; s <= 100; s++) first.message(text("r1", s, T0 + s, "bob", "old w" + s));
    store.write(first);
    // 150 new messages evict the 100 and 50 of themselves; two kept messages and one the write evicts are edited
    // in the same write; with 3 of another room, 103 index rows are written 64, 16, 16, 4, 1, 1 and 1 a statement
    StoreWrite w = new StoreWrite();
    for (long s = 101; s <= 250; s++) w.message(text("r1", s, T0 + s, "bob", "new w" + s));
    for (long s = 1; s <= 3; s++) w.message(text("r2", s, T0 + 300 + s, "carol", "other room"));
    w.message(text("r1", 240, T0 + 240, "bob", "edited").newBuilder().rev(1000).build());
    w.message(text("r1", 250, T0 + 250, "bob", "edited too").newBuilder().rev(1000).build());
    w.message(text("r1", 120, T0 + 120, "bob", "edited gone").newBuilder().rev(1000).build());
    store.write(w);
    assertEquals(Collections.emptyList(), ids("old"), "evicted messages are not found");
    assertEquals(Arrays.asList("r1-m250", "r1-m240"), ids("edited"));
    assertEquals(Collections.emptyList(), ids("w240"), "an edit is found by its new text only");
    List<String> found = new ArrayList<>();
    SearchQuery q = SearchQuery.of("new").limit(50);
    for (SearchPage page = store.search(q, "alice"); ; page = store.search(q.after(page.nextCursor()), "alice")) {
      found.addAll(ids(page));
      if (page.nextCursor() == null) break;
    }
    assertEquals(98, found.size(), "seq 151 to 250 but the two edited");
    assertEquals("r1-m249", found.get(0));
    assertEquals("r1-m151", found.get(97));
    assertEquals(Arrays.asList("r2-m3", "r2-m2", "r2-m1"), ids("other"));
    assertEquals(103, Fixtures.count(dir, "alice", "SELECT count(*) FROM message_search"), "a row a kept message");
    try (java.sql.Connection c = Fixtures.connect(SqliteChatStore.provider(dir).file("alice"))) {
      // FTS5 compares its index with its rows, and fails the statement on a difference
      c.createStatement().execute("INSERT INTO message_search (message_search) VALUES ('integrity-check')");
    }
  }

  @Test
  void sqliteJdbcGivesFts5() throws Exception {
    assertEquals(1, Fixtures.count(dir, "alice",
        "SELECT count(*) FROM sqlite_master WHERE name = 'message_search' AND sql LIKE '%USING fts5%'"));
  }

  @Test
  void aFailedWriteLeavesNoIndexRow() throws Exception {
    put(text("r1", 1, T0 + 1, "bob", "one"));
    // the same seq under another id: the store refuses the write, which rolls back whole
    StoreWrite w = new StoreWrite().message(text("r1", 2, T0 + 2, "bob", "orphan"))
        .message(text("r1", 1, T0 + 1, "bob", "one").newBuilder().id("other").build());
    assertThrows(dev.svc.chat.store.StoreException.class, () -> store.write(w));
    assertEquals(Collections.emptyList(), ids("orphan"));
    assertEquals(1, Fixtures.count(dir, "alice", "SELECT count(*) FROM message_search"));
  }

  @Test
  void aStoreWithoutIndexAnswersNull() throws Exception {
    ChatStore plain = new ChatStore() {
      @Override public dev.svc.chat.store.StoredState load() {
        return dev.svc.chat.store.StoredState.empty();
      }

      @Override public dev.svc.chat.MessagePage messages(String roomId, dev.svc.chat.MessageQuery query) {
        return null;
      }

      @Override public dev.svc.chat.store.RoomDigest digest(String r, String u, long s, int recent, int limit) {
        return null;
      }

      @Override public void write(StoreWrite write) {
      }

      @Override public void clear() {
      }

      @Override public void close() {
      }

      @Override public List<dev.svc.chat.store.StoredRoom> rooms() {
        return Collections.emptyList();
      }
    };
    assertNull(plain.search(SearchQuery.of("x"), "alice"));
    assertNotNull(store.search(SearchQuery.of("x"), "alice"));
  }
}
