package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.T0;
import static dev.svc.chat.store.sqlite.StoredSearchTest.ids;
import static dev.svc.chat.store.sqlite.StoredSearchTest.room;
import static dev.svc.chat.store.sqlite.StoredSearchTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ClientError;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.internal.offline.OfflineStore;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.store.StoreWrite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input to the offline search, through the client's offline store (the path of {@code searchStored}): the
 * failures the service would answer, and no text ever read as SQL or FTS syntax.
 */
class StoredSearchInputTest {
  @TempDir File dir;
  private final List<ClientError> errors = new ArrayList<>();
  private final Log log = new Log(dev.svc.chat.ChatLogger.NONE);
  private OfflineStore offline;

  @BeforeEach
  void open() throws Exception {
    offline = new OfflineStore(SqliteChatStore.provider(dir), new SerialQueue(Runnable::run, "I/O", log),
        new DirectActor(), errors::add, 999, log);
    offline.open("alice").get(30, TimeUnit.SECONDS);
    offline.writeQuietly(new StoreWrite().room(room("r1", "alice", "bob")).room(room("r2", "alice", "bob"))
        .message(text("r1", 1, T0 + 1, "bob", "a and b"))
        .message(text("r1", 2, T0 + 2, "bob", "a b"))
        .message(text("r1", 3, T0 + 3, "bob", "title: x near(y)"))
        .message(text("r1", 4, T0 + 4, "bob", "party 🎉 tonight"))
        .message(text("r1", 5, T0 + 5, "bob", "שָׁלוֹם עֲלֵיכֶם"))
        .message(text("r1", 6, T0 + 6, "bob", "مَرْحَبًا بكم"))
        .message(text("r2", 1, T0 + 7, "bob", "a b in the other room")));
  }

  @AfterEach
  void close() throws Exception {
    offline.close().get(30, TimeUnit.SECONDS);
    assertTrue(errors.isEmpty(), String.valueOf(errors));
  }

  private SearchPage search(SearchQuery q) throws Exception {
    return offline.search(q).get(30, TimeUnit.SECONDS);
  }

  private List<String> found(String q) throws Exception {
    SearchPage page = search(SearchQuery.of(q));
    assertTrue(page.fromStore());
    return ids(page);
  }

  private ApiException refused(SearchQuery q) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> search(q));
    assertTrue(e.getCause() instanceof ApiException, String.valueOf(e.getCause()));
    ApiException api = (ApiException) e.getCause();
    assertEquals("bad_request", api.code());
    assertEquals(400, api.status());
    return api;
  }

  @Test
  void anEmptyOrBlankOrTooLongQueryIsRefusedBeforeTheStore() {
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of(""));
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of(" \t\n "));
    StringBuilder q = new StringBuilder();
    for (int i = 0; i < 201; i++) q.appendCodePoint(0x1F389); // 201 code points, 402 chars
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of(q.toString()));
    assertNotNull(SearchQuery.of(q.substring(0, 400)), "200 code points are taken");
  }

  @Test
  void aQueryOfOperatorsOrEmojiOnlyHasNoWordAndIsABadRequest() throws Exception {
    for (String q : Arrays.asList("\"", "*", "-", "\"*-\"", ")", "( )", "🎉", "🎉🎉 *", "\u200f")) {
      refused(SearchQuery.of(q));
    }
    StringBuilder emoji = new StringBuilder();
    for (int i = 0; i < 200; i++) emoji.appendCodePoint(0x1F389);
    refused(SearchQuery.of(emoji.toString()));
  }

  @Test
  void sqlAndFtsSyntaxAreWordsOnly() throws Exception {
    assertEquals(Collections.singletonList("r1-m1"), found("a AND b"), "AND is the word and");
    assertEquals(Collections.emptyList(), found("a OR b"), "OR is the word or, of no message: no FTS OR");
    assertEquals(Collections.singletonList("r1-m3"), found("title:x"));
    assertEquals(Collections.singletonList("r1-m3"), found("NEAR("));
    assertEquals(Collections.singletonList("r1-m3"), found("near(y) x*"));
    assertEquals(Collections.singletonList("r1-m1"), found("-and"), "- means nothing");
    assertEquals(Arrays.asList("r2-m1", "r1-m2", "r1-m1"), found("b)"));
    assertEquals(Collections.emptyList(), found("'; DROP TABLE messages; --"));
    assertEquals(Collections.emptyList(), found("words: \"title\" ^x {a b} NOT x"));
    assertEquals(Arrays.asList("r2-m1", "r1-m2", "r1-m1"), found("b"), "the store is whole");
  }

  @Test
  void emojiAndRightToLeftTextAreFoundByTheirWords() throws Exception {
    assertEquals(Collections.singletonList("r1-m4"), found("party 🎉"), "an emoji is no word");
    assertEquals(Collections.singletonList("r1-m5"), found("שלום"), "Hebrew without its vowel marks");
    assertEquals(Collections.singletonList("r1-m5"), found("\"שָׁלוֹם עליכם\""));
    assertEquals(Collections.singletonList("r1-m6"), found("مرحبا"), "Arabic without its vowel marks");
    assertEquals(Collections.singletonList("r1-m6"), found("مَرْحَ*"));
    assertEquals("\u0001שָׁלוֹם\u0002 עֲלֵיכֶם", search(SearchQuery.of("שלום")).results().get(0).snippet());
  }

  @Test
  void aCursorOfAnotherSearchOrForgedIsABadRequest() throws Exception {
    SearchPage first = search(SearchQuery.of("b").limit(1));
    String cursor = first.nextCursor();
    assertNotNull(cursor);
    assertEquals(Collections.singletonList("r1-m2"), ids(search(SearchQuery.of("B").limit(1).after(cursor))),
        "the same words are the same search");
    refused(SearchQuery.of("a").limit(1).after(cursor));
    refused(SearchQuery.of("b").room("r1").limit(1).after(cursor));
    refused(SearchQuery.of("b").sender("bob").limit(1).after(cursor));
    for (String forged : Arrays.asList("x", "s1.", "s1.1.2.3.4", cursor + "0", cursor.replace("s1.", "s1.9"),
        cursor.substring(0, cursor.length() - 1) + (cursor.endsWith("0") ? "1" : "0"))) {
      refused(SearchQuery.of("b").limit(1).after(forged));
    }
  }

  @Test
  void aSearchNarrowedByThreadIsABadRequest() {
    ApiException e = refused(SearchQuery.of("b").thread("r1-m1"));
    assertTrue(e.getMessage().contains("thread"), e.getMessage());
  }

  @Test
  void aRoomTheUserLeftIsNotSearched() throws Exception {
    assertEquals(Arrays.asList("r2-m1", "r1-m2", "r1-m1"), found("a b"));
    offline.writeQuietly(new StoreWrite().removeRoom("r2")); // what the journal writes when the user left
    assertEquals(Arrays.asList("r1-m2", "r1-m1"), found("a b"));
    assertEquals(Collections.emptyList(), ids(search(SearchQuery.of("a b").room("r2"))));
  }

  @Test
  void withoutAnOpenStoreTheSearchFailsWithAState() throws Exception {
    OfflineStore unopened = new OfflineStore(SqliteChatStore.provider(dir), new SerialQueue(Runnable::run, "I/O",
        log), new DirectActor(), errors::add, 999, log);
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> unopened.search(SearchQuery.of("b")).get(30, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof ChatStateException, String.valueOf(e.getCause()));
  }

  /** Runs the actor's tasks on the calling thread. */
  private static final class DirectActor implements Scheduler {
    @Override
    public boolean execute(Runnable task) {
      task.run();
      return true;
    }

    @Override
    public Timer schedule(Runnable task, long delayMillis) {
      throw new UnsupportedOperationException("no timers here");
    }

    @Override
    public long nowMillis() {
      return 0;
    }

    @Override
    public boolean inActor() {
      return true;
    }

    @Override
    public void shutdown() {
    }
  }
}
