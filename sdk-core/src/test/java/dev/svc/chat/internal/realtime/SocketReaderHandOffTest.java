package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.internal.GatewayEvents;
import dev.svc.chat.internal.json.ServiceError;
import dev.svc.chat.internal.util.CallerRuns;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.SerialScheduler;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.Test;

/**
 * The reader's hand-off to the actor: what the socket reports while the actor is idle is taken on the reader's
 * thread, with no other thread woken; what it reports while the actor is busy waits its turn behind the actor's work.
 */
class SocketReaderHandOffTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final InboundGate gate = new InboundGate(() -> 0, () -> 0L, true);
  /** What the actor handed its executor: run by the test, as a pool's thread would. */
  private final List<Runnable> posted = new ArrayList<>();
  private final SerialScheduler actor = new SerialScheduler(posted::add, new VirtualTaskScheduler(),
      new Log(ChatLogger.NONE), CallerRuns.TRANSPORTS);
  /** What reached the engine, in order, and on which thread. */
  private final List<String> seen = new ArrayList<>();
  private final GatewayConnection conn = new GatewayConnection(1, new Owner(), actor, null, null,
      new Log(ChatLogger.NONE));
  private final SocketReader reader = new SocketReader(conn, new QuietListener(), actor, gate, GatewayEvents.STANDARD.reader(), () -> { }, new Log(ChatLogger.NONE), now::get);

  @Test
  void whatTheSocketReportsWhileTheActorIsIdleIsTakenOnTheReadersThread() {
    reader.onClosing(GateSockets.HOLDING, 1000, "bye");

    assertEquals(List.of("lost on " + Thread.currentThread().getName()), seen);
    assertTrue(posted.isEmpty(), "another thread was woken to take it: " + posted.size() + " task(s)");
  }

  @Test
  void whatTheSocketReportsWhileTheActorIsBusyWaitsItsTurn() {
    actor.execute(() -> seen.add("the actor's work, posted first"));
    reader.onClosing(GateSockets.HOLDING, 1000, "bye");

    assertTrue(seen.isEmpty(), "the socket's report overtook the actor's work: " + seen);
    assertEquals(1, posted.size(), "one drain of the actor's queue takes both");
    Thread pool = new Thread(posted.remove(0), "pool");
    pool.start();
    assertDoesNotHang(pool);
    assertEquals(List.of("the actor's work, posted first", "lost on pool"), seen);
    assertTrue(posted.isEmpty());
  }

  @Test
  void aPairOfFramesIsTakenOnTheReadersThread() {
    reader.onText(GateSockets.HOLDING, "3"); // a send's acknowledgement: the first of a burst, taken here
    now.addAndGet(SocketReader.QUIET_NANOS / 10); // its new-message follows closely
    reader.onText(GateSockets.HOLDING, "3");

    assertEquals(0, gate.frames(), "a frame of the pair waits for the actor");
    assertTrue(posted.isEmpty(), "the actor was woken for the second frame of a pair: " + posted.size()
        + " task(s)");
  }

  @Test
  void theRestOfABurstIsLeftToTheActorWhichTakesItInOneBatch() {
    reader.onText(GateSockets.HOLDING, "3");
    reader.onText(GateSockets.HOLDING, "3"); // the first two: taken here
    assertTrue(posted.isEmpty());

    now.addAndGet(SocketReader.QUIET_NANOS / 10); // the next frames follow closely: the rest of the burst
    reader.onText(GateSockets.HOLDING, "3");
    reader.onText(GateSockets.HOLDING, "3");
    assertEquals(2, gate.frames(), "a frame past the second of a burst was taken on the reader, alone in its"
        + " batch");
    assertEquals(1, posted.size(), "one drain of the actor takes the rest of the burst");
    posted.remove(0).run();
    assertEquals(0, gate.frames());

    now.addAndGet(SocketReader.QUIET_NANOS); // a quiet spell: the next one starts a burst again
    reader.onText(GateSockets.HOLDING, "3");
    assertEquals(0, gate.frames());
    assertTrue(posted.isEmpty());
  }

  private static void assertDoesNotHang(Thread thread) {
    try {
      thread.join(dev.svc.chat.testing.FakeGateway.TIMEOUT_SECONDS * 1000L);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertTrue(!thread.isAlive(), thread + " did not end");
  }

  private final class Owner implements GatewayConnection.Owner {
    @Override
    public void accepted(GatewayConnection c) {
    }

    @Override
    public void lost(GatewayConnection c, ConnectionReason reason, RuntimeException cause) {
      seen.add("lost on " + Thread.currentThread().getName());
    }

    @Override
    public void refused(GatewayConnection c, ServiceError error) {
    }

    @Override
    public void disconnected(GatewayConnection c) {
    }

    @Override
    public void event(GatewayConnection c, EventDecoder.Event<?> event) {
    }

    @Override
    public void clientError(GatewayConnection c, ClientError error) {
    }

    @Override
    public String token() {
      return "t";
    }
  }
}
