package dev.svc.chat.bench.store;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;

import dev.svc.chat.JulChatLogger;
import dev.svc.chat.Message;
import dev.svc.chat.MessageLinks;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSummary;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.internal.rooms.RoomListModel;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;

/**
 * The room list's cost of one new message: {@link RoomListModel} (the SDK's own, internal) following
 * {@code rooms} rooms, each listed with 1,000 messages and the user's receipt; each iteration hands it one new
 * message of a room (as recovery delivers it on the actor) and runs the snapshot that follows to a subscribed
 * handler. The actor and the callback executor run tasks on the calling thread, so the thread's CPU time over
 * an iteration is the whole cost: the tally, the snapshot (summaries, sort) and the hand-off. With
 * {@code mentionEvery} above 0, every such message of another member whose seq is a multiple of it mentions the
 * user (and another member), so the unread mention counts grow with the unread counts.
 */
final class RoomListCpu {
  private static final List<String> MENTIONED = Arrays.asList(StoreFixture.USER, "user_7");

  /** Nanoseconds of CPU per iteration, sorted. */
  final long[] nanos;
  final int snapshots;
  final int roomsInSnapshot;
  /** The unread mentions summed over the last snapshot's rooms. */
  final long mentionsInSnapshot;

  private RoomListCpu(long[] nanos, int snapshots, int roomsInSnapshot, long mentionsInSnapshot) {
    this.nanos = nanos;
    this.snapshots = snapshots;
    this.roomsInSnapshot = roomsInSnapshot;
    this.mentionsInSnapshot = mentionsInSnapshot;
  }

  static RoomListCpu measure(int rooms, int warmups, int iterations, int mentionEvery) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Log log = new Log(JulChatLogger.create());
    RoomListModel model = new RoomListModel(new Inline(), CallbackExecutor.on(Runnable::run, log),
        SvcOptions.DEFAULT_UNREAD_CAP, log);
    model.user(StoreFixture.USER);
    final RoomList[] last = new RoomList[1];
    final int[] count = {0};
    model.subscribe(list -> {
      last[0] = list;
      count[0]++;
    }, () -> { });
    long[] seq = new long[rooms];
    for (int r = 0; r < rooms; r++) {
      String id = StoreFixture.roomId(r);
      seq[r] = 1000;
      model.listed(Room.builder().id(id).name("Room " + r).memberIds(Arrays.asList(StoreFixture.USER, "user_1"))
          .createdAt(StoreFixture.T0).lastMessageSeq(1000).lastMessageAt(StoreFixture.T0 + r).rev(1000).build());
      long read = 1000 - StoreFixture.unread(r);
      model.receipt(Receipt.of(id, StoreFixture.USER, "m-" + read, read, StoreFixture.T0));
    }
    model.listingDone();
    long[] nanos = new long[iterations];
    int before = 0;
    long at = StoreFixture.T0 + 1_000_000;
    for (int i = -warmups; i < iterations; i++) {
      int r = (int) ((i + warmups) * 7919L % rooms); // rooms in turn, not in their order
      String id = StoreFixture.roomId(r);
      Message m = StoreFixture.message(id, ++seq[r], ++at);
      if (mentionEvery > 0 && !StoreFixture.USER.equals(m.senderId()) && m.seq() % mentionEvery == 0) {
        m = m.newBuilder().links(MessageLinks.builder().mentions(MENTIONED).build()).build();
      }
      if (i == 0) before = count[0];
      long t0 = threads.getCurrentThreadCpuTime();
      model.delivered(m, m.seq(), m.rev());
      long t1 = threads.getCurrentThreadCpuTime();
      if (i >= 0) nanos[i] = t1 - t0;
    }
    Arrays.sort(nanos);
    long mentions = 0;
    for (RoomSummary summary : last[0].rooms()) mentions += summary.unreadMentions();
    return new RoomListCpu(nanos, count[0] - before, last[0].rooms().size(), mentions);
  }

  double percentileMicros(double p) {
    int rank = (int) Math.ceil(p / 100.0 * nanos.length);
    return nanos[Math.max(0, Math.min(nanos.length - 1, rank - 1))] / 1000.0;
  }

  /** Runs every task at once on the calling thread; timers never fire (the model sets none here). */
  private static final class Inline implements Scheduler {
    @Override
    public boolean execute(Runnable task) {
      task.run();
      return true;
    }

    @Override
    public Timer schedule(Runnable task, long delayMillis) {
      return () -> { };
    }

    @Override
    public long nowMillis() {
      return System.nanoTime() / 1_000_000;
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
