package dev.svc.chat.internal.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ClientError;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Room;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.internal.util.SerialScheduler;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;
import dev.svc.chat.testing.NoOpChatStore;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.Test;

/** Opening the user's store: a damaged one is reported, deleted and rebuilt; reads wait for the open. */
class OfflineStoreTest {
  private final RecordingLogger logged = new RecordingLogger();
  private final Log log = new Log(logged);
  private final ArrayDeque<Runnable> io = new ArrayDeque<>();
  private final ArrayDeque<Runnable> actorTasks = new ArrayDeque<>();
  private final List<ClientError> errors = new ArrayList<>();
  private final List<String> calls = new ArrayList<>();
  /** What the next opens throw, in turn (null: open fine). */
  private final ArrayDeque<StoreException.Kind> failures = new ArrayDeque<>();
  /** What the opened store committed. */
  private final List<StoreWrite> writes = new ArrayList<>();
  /** Whether the opened store's writes fail. */
  private boolean failWrites;

  private OfflineStore offline() {
    SerialScheduler actor = new SerialScheduler(actorTasks::add, new VirtualTaskScheduler(), log);
    return new OfflineStore(new Provider(), new SerialQueue(io::add, "I/O", log), actor, errors::add, 5, log);
  }

  private void runAll() {
    while (!io.isEmpty() || !actorTasks.isEmpty()) {
      while (!io.isEmpty()) io.poll().run();
      while (!actorTasks.isEmpty()) actorTasks.poll().run();
    }
  }

  @Test
  void aCorruptStoreIsReportedDeletedAndOpenedAgainEmpty() throws Exception {
    failures.add(StoreException.Kind.CORRUPT);
    OfflineStore offline = offline();
    CompletableFuture<StoredState> state = offline.open("me");
    runAll();
    assertTrue(state.get().isEmpty());
    assertTrue(offline.active(), "the rebuilt store is in use");
    assertEquals(Arrays.asList("open me", "delete me", "open me"), calls);
    assertEquals(1, errors.size());
    assertEquals(ClientError.Kind.STORE_CORRUPT, errors.get(0).kind());
    assertTrue(errors.get(0).cause() instanceof StoreException);
  }

  @Test
  void aStoreOfANewerSchemaIsRebuiltTooNeverShownAsItIs() throws Exception {
    failures.add(StoreException.Kind.NEWER_SCHEMA);
    OfflineStore offline = offline();
    offline.open("me");
    runAll();
    assertEquals(Arrays.asList("open me", "delete me", "open me"), calls);
    assertEquals(ClientError.Kind.STORE_CORRUPT, errors.get(0).kind());
  }

  @Test
  void aStoreThatCannotBeOpenedIsReportedAndTheClientGoesOnWithoutIt() throws Exception {
    failures.add(StoreException.Kind.IO);
    OfflineStore offline = offline();
    CompletableFuture<StoredState> state = offline.open("me");
    runAll();
    assertTrue(state.get().isEmpty());
    assertFalse(offline.active());
    assertEquals(Arrays.asList("open me"), calls, "nothing deleted: the data may be fine");
    assertEquals(ClientError.Kind.STORE_IO, errors.get(0).kind());
  }

  @Test
  void aReadRightAfterConnectWaitsForTheOpenAndAnswersFromTheStore() throws Exception {
    OfflineStore offline = offline();
    offline.open("me");
    CompletableFuture<MessagePage> page = offline.messages("r1", MessageQuery.latest(10)); // before the open ran
    runAll();
    assertTrue(page.get().fromStore());
    assertEquals(1, page.get().messages().size());
  }

  @Test
  void beforeAnyConnectTheServiceAnswers() throws Exception {
    CompletableFuture<MessagePage> page = offline().messages("r1", MessageQuery.latest(10));
    runAll();
    assertNull(page.get());
  }

  /** Opens a store with one room and one message, after the failures planted in {@link #failures}. */
  @Test
  void messagesKeptFromAReadGoToTheStoreInOneWrite() throws Exception {
    OfflineStore offline = offline();
    offline.open("me");
    runAll();
    offline.keep(Arrays.asList(message(1), message(2)));
    offline.keep(Collections.<Message>emptyList());
    runAll();
    assertEquals(1, writes.size(), "one write for the page, none for an empty one");
    assertEquals(2, writes.get(0).keptMessages().size());
    assertTrue(writes.get(0).messages().isEmpty(), "kept, not delivered: no event brought them");
  }

  @Test
  void aKeptPageTheStoreCannotWriteIsLoggedNotReported() throws Exception {
    OfflineStore offline = offline();
    offline.open("me");
    runAll();
    failWrites = true;
    offline.keep(Collections.singletonList(message(1)));
    runAll();
    assertEquals(Collections.emptyList(), errors, "the store only misses a page: no error for the app");
    assertTrue(logged.mentions("disk full"), String.valueOf(logged.lines));
    assertTrue(offline.active(), "the store stays in use");
  }

  @Test
  void nothingIsKeptBeforeTheStoreOpened() {
    OfflineStore offline = offline();
    offline.keep(Collections.singletonList(message(1)));
    offline.open("me");
    runAll();
    assertEquals(Collections.emptyList(), writes);
  }

  private static Message message(long seq) {
    return Message.builder().id("m" + seq).roomId("r1").seq(seq).rev(1).senderId("bob").clientMessageId("c" + seq)
        .addPart(MessagePart.text("hi")).createdAt(1).build();
  }

  private final class Provider extends NoOpChatStore {
    @Override
    public ChatStore open(String userId) throws StoreException {
      calls.add("open " + userId);
      StoreException.Kind kind = failures.poll();
      if (kind != null) throw new StoreException(kind, "planted " + kind, null);
      return new NoOpChatStore() {
        @Override
        public MessagePage messages(String roomId, MessageQuery query) {
          return new MessagePage(Collections.singletonList(message(1)), false, true);
        }

        @Override
        public void write(StoreWrite write) throws StoreException {
          if (failWrites) throw new StoreException(StoreException.Kind.IO, "disk full", null);
          writes.add(write);
        }

        @Override
        public List<StoredRoom> rooms() {
          return Collections.singletonList(new StoredRoom(Room.builder().id("r1").createdAt(1).build(), 1, 1));
        }
      };
    }

    @Override
    public void delete(String userId) {
      calls.add("delete " + userId);
    }
  }
}
