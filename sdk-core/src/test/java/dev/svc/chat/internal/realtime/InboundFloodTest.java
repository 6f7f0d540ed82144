package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.ClientError;
import dev.svc.chat.internal.GatewayEvents;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import org.junit.jupiter.api.Test;

/**
 * A flood of the events the inbound gate never sheds, while the handlers are stuck: what waits for the engine stays
 * bounded. Typing and presence are superseded by the latest per room and user, and come out once the backlog is
 * low; call events are kept up to a bound, and past it dropped and reported once.
 */
class InboundFloodTest {
  private final AtomicInteger backlog = new AtomicInteger(InboundGate.HIGH_WATER); // the handlers are stuck
  private final AtomicLong now = new AtomicLong(1_000);
  private final InboundGate gate = new InboundGate(backlog::get, now::get, true);
  private final GatewayConnection conn = new GatewayConnection(1, null, null, null, null, null);
  private final Actor actor = new Actor();
  private final List<ClientError> reported = new ArrayList<>();
  private final SocketReader reader = new SocketReader(conn, new QuietListener() {
    @Override
    public void onClientError(ClientError error) {
      reported.add(error);
    }
  }, actor, gate, GatewayEvents.STANDARD.reader(), () -> { }, new Log(ChatLogger.NONE));

  private static String typing(String roomId, String userId, boolean isTyping) {
    return "42[\"typing\",{\"roomId\":\"" + roomId + "\",\"userId\":\"" + userId + "\",\"isTyping\":" + isTyping + "}]";
  }

  private static String presence(String userId, boolean online, long at) {
    return "42[\"tenant-presence\",{\"userId\":\"" + userId + "\",\"online\":" + online + ",\"at\":" + at + "}]";
  }

  private static String callInvite(int i) {
    return "42[\"call-invite\",{\"id\":\"call-" + i + "\",\"roomId\":\"r1\",\"kind\":\"audio\",\"state\":\"ringing\","
        + "\"initiatorId\":\"bob\",\"participants\":[\"bob\"],\"createdAt\":\"2026-11-21T09:00:00.000Z\"}]";
  }

  /** Makes the gate shed: a frame waits past its connection's park limit with the handlers stuck. */
  private void startShedding() {
    reader.onText(GateSockets.DEFERRING, typing("r0", "u0", true)); // deferred: the gate waits for the handlers
    now.addAndGet(conn.parkLimitMillis);
    reader.onText(GateSockets.DEFERRING, "42[\"new-message\",{}]"); // shed: recovery restores it
    assertTrue(gate.shedding());
  }

  @Test
  void aFloodOfTypingPresenceAndCallsWhileTheHandlersAreStuckStaysBounded() {
    startShedding();
    int queuedBefore = gate.frames();
    for (int i = 0; i < 10_000; i++) {
      reader.onText(GateSockets.DEFERRING, typing("r" + (i % 2), "u" + (i % 3), i % 2 == 0));
      reader.onText(GateSockets.DEFERRING, presence("u" + (i % 5), i % 2 == 0, i));
    }
    for (int i = 0; i < 2_000; i++) reader.onText(GateSockets.DEFERRING, callInvite(i));

    int queued = gate.frames() - queuedBefore;
    assertTrue(queued <= InboundGate.MAX_KEPT_WHILE_SHEDDING,
        queued + " frames wait for the engine after a flood of 22,000 it never sheds");
    assertEquals(InboundGate.MAX_KEPT_WHILE_SHEDDING, queued, "the first call events are kept");
    // typing: 2 rooms x 3 users; presence: 5 users; each the latest of its key
    List<SocketIoPacket> parked = reader.parked();
    assertEquals(6 + 5, parked.size(), String.valueOf(parked));
    for (SocketIoPacket p : parked) {
      String frame = p.frame().toString();
      if (frame.contains("\"u0\"") && frame.contains("tenant-presence")) {
        assertTrue(frame.contains("\"at\":9995"), frame); // u0's last presence: i = 9995
      }
    }
    // the calls dropped are reported once, on the actor
    conn.abandoned = true; // the test's connection reads no frame: only the reader's reports run
    actor.runTasks();
    assertEquals(1, reported.size(), String.valueOf(reported));
    assertEquals(ClientError.Kind.EVENTS_DROPPED, reported.get(0).kind());
  }

  @Test
  void parkedEventsAreQueuedOnceTheBacklogIsLow() {
    startShedding();
    reader.onText(GateSockets.DEFERRING, typing("r1", "u1", true));
    reader.onText(GateSockets.DEFERRING, typing("r1", "u1", false)); // supersedes the one before
    reader.onText(GateSockets.DEFERRING, presence("u2", false, 7));
    int queued = gate.frames();
    assertEquals(2, reader.parked().size());

    actor.runTimers(); // still behind: checked again later
    assertEquals(queued, gate.frames());
    backlog.set(0); // the handlers caught up, and no frame comes
    actor.runTimers();

    assertEquals(queued + 2, gate.frames(), "the latest typing of u1 in r1 and u2's presence");
    assertTrue(reader.parked().isEmpty());
  }

  /** Records the actor's tasks and timers; the test runs them. */
  private static final class Actor implements Scheduler {
    final List<Runnable> tasks = new ArrayList<>();
    final List<Runnable> timers = new ArrayList<>();

    void runTasks() {
      while (!tasks.isEmpty()) tasks.remove(0).run();
    }

    void runTimers() {
      List<Runnable> due = new ArrayList<>(timers);
      timers.clear();
      for (Runnable r : due) r.run();
    }

    @Override
    public boolean execute(Runnable task) {
      tasks.add(task);
      return true;
    }

    @Override
    public Timer schedule(Runnable task, long delayMillis) {
      timers.add(task);
      return () -> timers.remove(task);
    }

    @Override
    public long nowMillis() {
      return 0;
    }

    @Override
    public boolean inActor() {
      return false;
    }

    @Override
    public void shutdown() {
    }
  }
}
