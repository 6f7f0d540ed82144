package dev.svc.chat.internal.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.ClientError;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.internal.events.EventHub;
import dev.svc.chat.internal.recovery.DeliverySink;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.internal.util.SerialScheduler;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.testing.NoOpChatStore;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The journal holds recovery's events until the write that stores them committed, in order. */
class StoreJournalTest {
  private static final Log LOG = new Log(ChatLogger.NONE);
  /** The I/O queue's executor, run by hand: a write is under way until {@link #runIo()}. */
  private final ArrayDeque<Runnable> io = new ArrayDeque<>();
  /** The actor's executor, run by hand too: a task posted by the journal runs at {@link #runActor()}. */
  private final ArrayDeque<Runnable> actorTasks = new ArrayDeque<>();
  private final List<String> published = new ArrayList<>();
  private final List<StoreWrite> committed = new ArrayList<>();
  private final List<ClientError> errors = new ArrayList<>();
  private boolean failWrites;
  private StoreJournal journal;
  private SerialScheduler actor;

  @BeforeEach
  void setUp() {
    actor = new SerialScheduler(actorTasks::add, new VirtualTaskScheduler(), LOG);
    EventHub hub = new EventHub(CallbackExecutor.on(Runnable::run, LOG), LOG);
    DeliverySink sink = new DeliverySink() {
      @Override
      public <T> void publish(EventType<T> type, T payload) {
        published.add(payload instanceof Message ? "msg " + ((Message) payload).seq() : payload.getClass().getSimpleName());
      }

      @Override
      public void report(ClientError error) {
        errors.add(error);
        published.add("error " + error.kind());
      }
    };
    OfflineStore offline = new OfflineStore(new OneStore(), new SerialQueue(io::add, "I/O", LOG), actor,
        errors::add, 5, LOG);
    offline.open("me");
    runIo();
    runActor();
    assertTrue(offline.active());
    journal = new StoreJournal(sink, hub, offline, actor);
  }

  private void runIo() {
    while (!io.isEmpty()) io.poll().run();
  }

  private void runActor() {
    while (!actorTasks.isEmpty()) actorTasks.poll().run();
  }

  /** Runs the actor's tasks (the flush at the end of the task), then the I/O queue, then the actor's answers. */
  private void runAll() {
    while (!actorTasks.isEmpty() || !io.isEmpty()) {
      runActor();
      runIo();
    }
  }

  private static Message message(long seq) {
    return Message.builder().id("m" + seq).roomId("r1").seq(seq).rev(seq).senderId("bob").clientMessageId("c" + seq)
        .addPart(MessagePart.text("hi")).createdAt(1).build();
  }

  private void deliver(long seq) {
    Message m = message(seq);
    journal.delivered(m, seq, seq);
    journal.publish(EventType.NEW_MESSAGE, m);
  }

  @Test
  void anEventReachesTheHandlersOnlyOnceTheWriteThatStoresItCommitted() {
    deliver(1);
    deliver(2);
    runActor(); // the task ended: its write went to the I/O queue
    assertEquals(Arrays.asList(), published, "held while the write is under way");
    assertEquals(2, journal.waiting());
    runAll();
    assertEquals(1, committed.size(), "one task's deliveries in one write");
    assertEquals(2, committed.get(0).messages().size());
    assertEquals(2, committed.get(0).watermarks().get(0).seq(), "the watermark that covers them, in the same write");
    assertEquals(Arrays.asList("msg 1", "msg 2"), published);
    assertEquals(0, journal.waiting());
  }

  @Test
  void anEventWithNothingToStoreWaitsForTheWritesBeforeIt() {
    deliver(1);
    runActor(); // the write of message 1 is under way
    // a later task: a recovery report, which stores nothing, must not overtake message 1
    journal.publish(EventType.RECOVERY, new RecoveryEvent(RecoveryEvent.Phase.FINISHED, "r1", 1, 1, 0, 0));
    runActor();
    assertEquals(Arrays.asList(), published);
    runAll();
    assertEquals(Arrays.asList("msg 1", "RecoveryEvent"), published);
  }

  @Test
  void aFailedWriteIsReportedAndItsEventsAreDeliveredAllTheSame() {
    failWrites = true;
    deliver(1);
    runAll();
    assertEquals(Arrays.asList("msg 1"), published);
    assertEquals(ClientError.Kind.STORE_IO, errors.get(0).kind());
  }

  @Test
  void recoveryReadsItsNextPageOnlyOnceTheHeldEventsWerePublished() {
    List<String> reads = new ArrayList<>();
    deliver(1);
    journal.whenHandled(() -> reads.add("next page"));
    runActor();
    assertEquals(Arrays.asList(), reads, "not while message 1 waits for its write");
    runAll();
    assertEquals(Arrays.asList("next page"), reads);
  }

  @Test
  void aWriteStillQueuedWhenTheClientClosesIsNotCommittedWithoutItsEvents() throws InterruptedException {
    deliver(1);
    runActor(); // message 1's write waits on the I/O queue (a slow disk)
    assertEquals(false, journal.settle(0), "close() gave up waiting for it");
    actor.shutdown(); // then close() stops the engine: nothing posted to the actor runs any more
    runAll(); // the I/O queue goes on
    assertEquals(Arrays.asList(), published, "the events held for the write never reach the handlers");
    assertEquals(0, committed.size(), "so the write must not be stored either: a restart would take message 1 as "
        + "delivered and never deliver it");
  }

  @Test
  void aWriteCommittedBeforeTheClientClosesHasItsEventsPublished() throws InterruptedException {
    deliver(1);
    runActor();
    runIo(); // committed; its events are posted to the actor
    assertEquals(false, journal.settle(0));
    runActor(); // the actor runs until the engine stops it
    assertEquals(1, committed.size());
    assertEquals(Arrays.asList("msg 1"), published);
  }

  @Test
  void eachWriteIsStampedWithTheServiceTimeOfTheLatestThingSeen() {
    deliver(1);
    runAll();
    journal.serviceTime(10);
    deliver(2);
    runAll();
    assertEquals(2, committed.size());
    assertEquals(0L, committed.get(0).writtenAt(), "no service time seen yet");
    assertEquals(10L, committed.get(1).writtenAt(), "a restart reads rooms joined meanwhile from here");
  }

  /** A store that records what it commits, or fails. */
  private final class OneStore extends NoOpChatStore {
    @Override
    public void write(StoreWrite write) throws StoreException {
      if (failWrites) throw new StoreException(StoreException.Kind.IO, "disk full", null);
      if (!write.isEmpty()) committed.add(write);
    }
  }
}
