package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.svc.chat.internal.RealChatClient;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatedExecutor;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import okhttp3.HttpUrl;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Backpressure of a slow handler (issue 18, defect 4): the heartbeat, a new socket's handshake and state
 * changes never wait behind a backlog of messages (recovery's pacing: {@code RecoveryTest}). A handler blocked on a latch, a callback executor of two threads the test owns, the client's
 * timers on virtual time, and a room's history served by the fake gateway's REST side.
 */
class InboundBackpressureTest {
  /** Past the gate's high water mark (1,024 frames and events). */
  private static final int FLOOD = 1_100;
  /** The gate's high water mark: frames and events the client holds at most. */
  private static final int HIGH_WATER = 1_024;

  private FakeGateway gateway;
  private GatedExecutor callbacks;
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private final RecordingLogger logger = new RecordingLogger();
  private ChatClient client;
  private final History history = new History();
  private final CountDownLatch release = new CountDownLatch(1);
  private final BlockingQueue<Long> seen = new LinkedBlockingQueue<>();
  /** State events and messages as the app saw them, in order. */
  private final List<String> timeline = Collections.synchronizedList(new ArrayList<>());
  private final BlockingQueue<ConnectionStateChange> states = new LinkedBlockingQueue<>();

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    gateway.rest = history::answer;
    callbacks = new GatedExecutor(2);
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).callbackExecutor(callbacks).scheduler(time)
        .logger(logger).build());
    client.on(EventType.CONNECTION_STATE, c -> {
      timeline.add("state " + c.current());
      states.add(c);
    });
    client.on(EventType.NEW_MESSAGE, m -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      timeline.add("message " + m.seq());
      seen.add(m.seq());
    });
  }

  @AfterEach
  void tearDown() throws Exception {
    release.countDown();
    client.close();
    gateway.close();
    callbacks.close();
  }

  private GatewaySession connect() throws Exception {
    client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    awaitState(ConnectionState.CONNECTING);
    awaitState(ConnectionState.CONNECTED);
    return session;
  }

  private ConnectionStateChange awaitState(ConnectionState expected) throws InterruptedException {
    ConnectionStateChange c = states.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertNotNull(c, "no " + expected + " event within " + FakeGateway.TIMEOUT_SECONDS + " s");
    assertEquals(expected, c.current(), c.toString());
    return c;
  }

  /** Sends messages {@code from..to} of room r1, as live events, and records them as the room's history. */
  private void flood(GatewaySession session, long from, long to) {
    for (long seq = from; seq <= to; seq++) {
      history.last.set(seq);
      session.send(Frames.newMessage("m" + seq, "r1", seq, "t" + seq));
    }
  }

  private void awaitBacklog(int atLeast) {
    RealChatClient real = (RealChatClient) client;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FakeGateway.TIMEOUT_SECONDS);
    while (real.pendingDeliveries() < atLeast) {
      assertTrue(System.nanoTime() < deadline, "the backlog stayed at " + real.pendingDeliveries());
      Thread.yield();
    }
  }

  /** Waits until no frame waits for the engine and at least {@code atLeast} events wait for the handler. */
  private void awaitAllFramesRead(int atLeast) {
    RealChatClient real = (RealChatClient) client;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FakeGateway.TIMEOUT_SECONDS);
    while (real.undeliveredEvents() < atLeast || real.pendingDeliveries() != real.undeliveredEvents()) {
      assertTrue(System.nanoTime() < deadline, "only " + real.undeliveredEvents() + " events were published, "
          + (real.pendingDeliveries() - real.undeliveredEvents()) + " frames wait for the engine");
      Thread.yield();
    }
  }

  private void assertDeliveredOnceInOrder(long last) throws InterruptedException {
    for (long seq = 1; seq <= last; seq++) {
      Long s = seen.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(s, "message " + seq + " never arrived");
      assertEquals(seq, (long) s, "out of order or repeated");
    }
  }

  @Test
  void aPingIsAnsweredWhileAHandlerIsBlockedPastTheMark() throws Exception {
    GatewaySession session = connect();
    flood(session, 1, FLOOD);
    session.send("2"); // a PING after the flood
    awaitBacklog(HIGH_WATER - 64); // the reader may stop up to 64 below the mark (see below)
    // the reader may hold the flood back a while (TCP pushes back on the gateway), never the heartbeat: within
    // 30 virtual seconds, below the 45 s watchdog (25 s ping interval + 20 s ping timeout), the ping is answered
    boolean pong = false;
    for (int s = 0; s < 30 && !pong; s++) {
      time.advance(1_000);
      pong = session.awaitPong(200);
    }
    // no more virtual time: a loaded machine may just be slow to read the flood and answer
    if (!pong) pong = session.awaitPong(TimeUnit.SECONDS.toMillis(FakeGateway.TIMEOUT_SECONDS));
    assertTrue(pong, "the PING behind the flood was never answered");
    assertEquals(ConnectionState.CONNECTED, client.state());
    assertTrue(states.isEmpty(), "the connection changed state: " + states);
    gateway.assertNoSession();
    // what the client did not keep is read from the history once the handler caught up: all once, in order
    release.countDown();
    assertDeliveredOnceInOrder(FLOOD);
    flood(session, FLOOD + 1, FLOOD + 1);
    assertEquals(FLOOD + 1, (long) seen.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void theNextSocketIsOpenedAndTheAppToldWhileAHandlerIsBlocked() throws Exception {
    GatewaySession first = connect();
    flood(first, 1, FLOOD);
    // the reader waits at the mark: the handler took nothing. The gate counts a batch's frames as waiting until 64
    // of them were read (their events are counted too meanwhile), so the reader may stop up to 64 below the mark
    awaitBacklog(HIGH_WATER - 64);
    awaitAllFramesRead(HIGH_WATER - 64); // and the engine read every frame it took: the events wait for the handler
    client.disconnect();
    client.connect("alice", "good-jwt");
    // the state events reach the app while its message handler is blocked: they overtake the queued messages
    awaitState(ConnectionState.DISCONNECTED);
    awaitState(ConnectionState.CONNECTING);
    GatewaySession second = gateway.nextSession();
    second.awaitConnect(); // the new socket's OPEN was read, though the handler still blocks
    awaitState(ConnectionState.CONNECTED);
    assertTrue(seen.isEmpty());
    history.last.set(FLOOD + 1);
    second.send(Frames.newMessage("m" + (FLOOD + 1), "r1", FLOOD + 1, "after"));
    release.countDown();
    long last = 0;
    while (last != FLOOD + 1) {
      Long s = seen.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(s, "the message of the new connection never arrived; the last one was " + last);
      last = s;
    }
    // delivered last: the next message of the new connection is the next one the handler gets
    history.last.set(FLOOD + 2);
    second.send(Frames.newMessage("m" + (FLOOD + 2), "r1", FLOOD + 2, "marker"));
    assertEquals(FLOOD + 2, (long) seen.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the message of the new connection was not delivered last");
    // the documented order: a state event may overtake messages queued before it, never the reverse: a message
    // published after CONNECTED (the new connection's) is delivered after it
    int connected = timeline.indexOf("state CONNECTED");
    int after = timeline.indexOf("message " + (FLOOD + 1));
    assertTrue(connected >= 0 && after > connected, timeline.subList(Math.max(0, after - 3), after + 1).toString());
    assertTrue(timeline.indexOf("state DISCONNECTED") < timeline.indexOf("message 1"),
        "the DISCONNECTED event waited behind the queued messages");
  }

  /** Room r1's history as the service keeps it: messages 1..{@link #last}, served 100 a page. */
  private static final class History {
    final AtomicLong last = new AtomicLong();
    /** What the first listing says of r1's last seq; -1: r1 is not listed (nothing sent yet). */
    final AtomicLong listed = new AtomicLong(-1);
    final AtomicInteger pages = new AtomicInteger();
    private final AtomicInteger listings = new AtomicInteger();

    MockResponse answer(RecordedRequest request) {
      HttpUrl url = request.getRequestUrl();
      String path = url.encodedPath();
      if (path.equals("/v1/chat/rooms")) {
        long seq = listings.getAndIncrement() == 0 ? listed.get() : last.get();
        String rooms = seq < 0 ? "" : "{\"id\":\"r1\",\"name\":\"General\",\"memberIds\":[\"alice\",\"bob\"],"
            + "\"createdAt\":\"2026-11-21T09:00:00.000Z\",\"lastMessageSeq\":" + seq + ",\"rev\":" + seq + "}";
        return json("{\"rooms\":[" + rooms + "]}");
      }
      if (path.equals("/v1/chat/rooms/r1/messages") && url.queryParameter("after") != null) {
        pages.incrementAndGet();
        long after = Long.parseLong(url.queryParameter("after"));
        int limit = Integer.parseInt(url.queryParameter("limit"));
        long end = Math.min(last.get(), after + limit);
        StringBuilder page = new StringBuilder("{\"messages\":[");
        for (long seq = after + 1; seq <= end; seq++) {
          if (seq > after + 1) page.append(',');
          page.append(Frames.messageJson("m" + seq, "r1", seq, "t" + seq));
        }
        return json(page.append("],\"hasMore\":").append(end < last.get()).append('}').toString());
      }
      if (path.equals("/v1/chat/rooms/r1/changes")) {
        return json("{\"messages\":[],\"rev\":" + last.get() + ",\"hasMore\":false}");
      }
      if (path.equals("/v1/chat/rooms/r1/receipts")) return json("{\"receipts\":[]}");
      return null;
    }

    private static MockResponse json(String body) {
      return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(body);
    }
  }
}
