package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.batch;
import static dev.svc.chat.store.sqlite.Fixtures.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ClientError;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.internal.offline.OfflineStore;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the client kept from the service's pages serves offline reads only: after a restart, only what events
 * delivered counts as delivered (the changes above a room's revision watermark that recovery must not deliver
 * again), so an edit the app saw only in a page still reaches it as an event.
 */
class KeptPagesTest {
  @TempDir File dir;
  private final List<ClientError> errors = new ArrayList<>();
  private final Log log = new Log(dev.svc.chat.ChatLogger.NONE);

  /** The client's offline store on the calling thread (its I/O queue and its actor run each task at once). */
  private OfflineStore offline(SqliteChatStore provider) {
    return new OfflineStore(provider, new SerialQueue(Runnable::run, "I/O", log), new DirectActor(), errors::add, 999,
        log);
  }

  private static Message edited(String roomId, long seq, long rev) {
    return message(roomId, seq, rev).newBuilder().parts(java.util.Collections.singletonList(
        MessagePart.text("edited at " + rev))).editedAt(Fixtures.T0 + rev).build();
  }

  @Test
  void anEditSeenOnlyInAPageIsNotTakenAsDeliveredAfterARestart() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    OfflineStore first = offline(provider);
    first.open("alice").get(30, TimeUnit.SECONDS);
    // recovery delivered messages 1..3 (watermarks seq 3, rev 3), then an edit of 2 out of order (rev 5)
    first.writeQuietly(batch("r", 1, 3));
    first.writeQuietly(new StoreWrite().message(edited("r", 2, 5)));
    // the app read a page: message 1 edited (rev 6) and message 3 edited twice (rev 8), seen by no event
    first.keep(Arrays.asList(edited("r", 1, 6), edited("r", 3, 8)));
    first.close().get(30, TimeUnit.SECONDS);

    OfflineStore restarted = offline(provider);
    StoredState state = restarted.open("alice").get(30, TimeUnit.SECONDS);
    try {
      assertEquals(Arrays.asList(edited("r", 2, 5)), state.changedAbove(),
          "only what events delivered above the watermark is delivered already");
      // the page still serves offline reads, in its latest revision
      List<Message> page = restarted.messages("r", MessageQuery.latest(3)).get(30, TimeUnit.SECONDS).messages();
      assertEquals(Arrays.asList(edited("r", 1, 6), edited("r", 2, 5), edited("r", 3, 8)), page);
      assertTrue(errors.isEmpty(), String.valueOf(errors));
    } finally {
      restarted.close().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aChangeDeliveredAfterItsPageWasKeptCountsAsDelivered() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    OfflineStore first = offline(provider);
    first.open("alice").get(30, TimeUnit.SECONDS);
    first.writeQuietly(batch("r", 1, 3));
    first.keep(Arrays.asList(edited("r", 1, 6))); // a page showed the edit first
    first.writeQuietly(new StoreWrite().message(edited("r", 1, 6))); // then recovery delivered it
    first.close().get(30, TimeUnit.SECONDS);

    OfflineStore restarted = offline(provider);
    StoredState state = restarted.open("alice").get(30, TimeUnit.SECONDS);
    try {
      assertEquals(Arrays.asList(edited("r", 1, 6)), state.changedAbove());
    } finally {
      restarted.close().get(30, TimeUnit.SECONDS);
    }
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
