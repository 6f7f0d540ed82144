package dev.svc.chat.internal.offline;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ClientError;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.internal.events.EventHub;
import dev.svc.chat.internal.recovery.DeliverySink;
import dev.svc.chat.internal.recovery.RecoveryJournal;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.store.StoreWrite;

/**
 * Between recovery and the handlers when the client has a store: what recovery delivers in one actor task
 * (an inbound batch, a page of a back-fill) is gathered into one {@link StoreWrite}, with the watermarks that
 * cover it, and its events are held until that write committed on the I/O queue. So the store's watermark is
 * never behind what the app was handed, and a message the app received before a restart is not delivered
 * again after it. Events keep their order: a batch is published only after the batches before it, and
 * recovery pages in only once the batches in flight were published ({@link #whenHandled}).
 *
 * <p>Confined to the actor, but {@link #waiting()} (read by the inbound gate on the socket's thread) and
 * {@link #settle} (by {@code close()}).
 */
public final class StoreJournal implements RecoveryJournal, DeliverySink {
  private final DeliverySink sink;
  private final EventHub hub;
  private final OfflineStore store;
  private final Scheduler actor;

  private StoreWrite write;
  /** The service's time of the latest thing the client saw ({@link #serviceTime}); writes are stamped with it. */
  private long serviceTime;
  /** The current task's events: type and payload in turn, a report as {@link #REPORT} and the error. */
  private List<Object> events;
  private boolean flushPosted;
  /** Writes handed to the I/O queue whose events were not published yet. */
  private int inFlight;
  private List<Runnable> afterPublished;
  /** Events held for a write, for the inbound gate. */
  private volatile int waiting;
  /** Counted down when nothing is held; replaced by {@link #settle}. */
  private volatile CountDownLatch settled;

  private static final Object REPORT = new Object();

  public StoreJournal(DeliverySink sink, EventHub hub, OfflineStore store, Scheduler actor) {
    this.sink = sink;
    this.hub = hub;
    this.store = store;
    this.actor = actor;
  }

  /** Returns how many events wait for their write (any thread). */
  public int waiting() {
    return waiting;
  }

  // ---------------------------------------------------------------- recovery's journal

  @Override
  public void delivered(Message m, long seq, long rev) {
    StoreWrite w = write();
    if (w != null) w.message(m).watermarks(m.roomId(), seq, rev);
  }

  @Override
  public void receipt(Receipt receipt) {
    StoreWrite w = write();
    if (w != null) w.receipt(receipt);
  }

  @Override
  public void watermarks(String roomId, long seq, long rev) {
    StoreWrite w = write();
    if (w != null) w.watermarks(roomId, seq, rev);
  }

  @Override
  public void serviceTime(long at) {
    serviceTime = at;
  }

  @Override
  public void listed(Room room) {
    StoreWrite w = write();
    if (w != null) w.room(room);
  }

  @Override
  public void forgotten(String roomId) {
    StoreWrite w = write();
    if (w != null) w.removeRoom(roomId);
  }

  private StoreWrite write() {
    if (!store.active()) return null;
    if (write == null) write = new StoreWrite();
    flushLater();
    return write;
  }

  // ---------------------------------------------------------------- the sink recovery delivers to

  @Override
  public <T> void publish(EventType<T> type, T payload) {
    if (!holding()) {
      sink.publish(type, payload);
      return;
    }
    hold(type, payload);
  }

  @Override
  public void report(ClientError error) {
    if (!holding()) {
      sink.report(error);
      return;
    }
    hold(REPORT, error);
  }

  @Override
  public void whenHandled(Runnable next) {
    if (inFlight == 0 && events == null && write == null) {
      sink.whenHandled(next);
      return;
    }
    if (afterPublished == null) afterPublished = new ArrayList<>(2);
    afterPublished.add(next);
    flushLater();
  }

  /** Whether events must wait: a write is gathered or in flight (events never overtake stored ones). */
  private boolean holding() {
    return write != null || inFlight > 0 || events != null;
  }

  private void hold(Object type, Object payload) {
    if (events == null) events = new ArrayList<>();
    events.add(type);
    events.add(payload);
    waiting++;
    flushLater();
  }

  private void flushLater() {
    if (flushPosted) return;
    flushPosted = true;
    if (!actor.execute(this::flush)) flushPosted = false;
  }

  /** At the end of the task that gathered them: the write goes to the I/O queue, its events wait for it. */
  private void flush() {
    flushPosted = false;
    final StoreWrite w = write;
    final List<Object> held = events;
    write = null;
    events = null;
    if ((w == null || w.isEmpty()) && inFlight == 0) {
      publishAll(held);
      return;
    }
    inFlight++;
    Runnable published = () -> {
      inFlight--;
      publishAll(held);
    };
    if (w == null || w.isEmpty()) {
      store.write(new StoreWrite(), published); // behind the writes in flight, to keep the order
    } else {
      store.write(w.writtenAt(serviceTime), published);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void publishAll(List<Object> held) {
    if (held != null) {
      hub.beginBatch();
      try {
        for (int i = 0; i < held.size(); i += 2) {
          Object type = held.get(i);
          if (type == REPORT) {
            sink.report((ClientError) held.get(i + 1));
          } else {
            sink.publish((EventType) type, held.get(i + 1));
          }
        }
      } finally {
        hub.endBatch();
      }
      waiting -= held.size() / 2;
    }
    if (holding()) return;
    List<Runnable> next = afterPublished;
    afterPublished = null;
    if (next != null) {
      for (Runnable r : next) sink.whenHandled(r);
    }
    CountDownLatch latch = settled;
    if (latch != null && !holding()) latch.countDown();
  }

  /**
   * Waits up to {@code timeoutMillis} for the events held to be stored and handed to the handlers (from
   * {@code close()}, off the actor, before the engine stops): a message the app was about to receive is
   * received, not left in the store undelivered. Then seals the store ({@link OfflineStore#seal()}): a write
   * not committed by then is dropped with its events, which the next start recovers. Returns whether it settled.
   */
  public boolean settle(long timeoutMillis) throws InterruptedException {
    try {
      final CountDownLatch latch = new CountDownLatch(1);
      settled = latch;
      if (!actor.execute(() -> {
        if (!holding()) latch.countDown();
      })) {
        return false;
      }
      return latch.await(timeoutMillis, TimeUnit.MILLISECONDS);
    } finally {
      store.seal();
    }
  }
}
