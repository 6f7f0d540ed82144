package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.internal.transport.OkHttpTransport;
import dev.svc.chat.internal.util.ApiUrls;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.GatewayEvents;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.GatewaySession;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The engine's timers on virtual time: the heartbeat watchdog and the reconnect backoff. */
class RealtimeEngineTest {
  /** Always the middle of the jitter range, so delays are half the ceiling. */
  private static final Random HALF = new Random() {
    @Override
    public double nextDouble() {
      return 0.5;
    }
  };

  private FakeGateway gateway;
  private OkHttpClient http;
  private VirtualScheduler scheduler;
  private RealtimeEngine engine;
  private final List<ConnectionStateChange> changes = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    http = new OkHttpClient();
    scheduler = new VirtualScheduler();
    EngineListener listener = new EngineListener() {
      @Override
      public void onStateChange(ConnectionStateChange change) {
        changes.add(change);
      }

      @Override
      public void onEvent(EventDecoder.Event<?> event) {
      }
    };
    engine = new RealtimeEngine(new OkHttpTransport(http), ApiUrls.of(gateway.apiUrl()).socket, scheduler,
        new ReconnectPolicy(500, 30_000, HALF), 10_000, false, GatewayEvents.STANDARD, () -> 0, listener, new Log(ChatLogger.NONE));
  }

  @AfterEach
  void tearDown() throws Exception {
    CompletableFuture<Void> done = engine.disconnect();
    scheduler.pumpUntil("disconnect", done::isDone);
    gateway.close();
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }

  private ConnectionState state() {
    return engine.state();
  }

  /** Returns how many times the heartbeat watchdog was armed (pingInterval + pingTimeout: 1,500 ms here). */
  private long watchdogs() {
    return scheduler.delays.stream().filter(d -> d == 1_500).count();
  }

  private List<Long> reconnectDelays() {
    List<Long> result = new ArrayList<>();
    for (long d : scheduler.delays) {
      if (d != RealtimeEngine.HANDSHAKE_TIMEOUT_MILLIS && d != 10_000 && d != 1_500) result.add(d);
    }
    return result;
  }

  @Test
  void watchdogFiresAtPingIntervalPlusPingTimeout() throws Exception {
    gateway.openPacket = FakeGateway.openPacket(1_000, 500);
    CompletableFuture<Void> connected = engine.connect("good-jwt");
    scheduler.pumpUntil("connected", connected::isDone);
    GatewaySession session = gateway.nextSession();
    assertEquals(ConnectionState.CONNECTED, state());

    scheduler.advance(1_499);
    assertEquals(ConnectionState.CONNECTED, state());
    session.send("2"); // a ping re-arms the watchdog
    assertEquals("40{\"token\":\"good-jwt\"}", session.nextFrame());
    scheduler.pumpUntil("pong", () -> scheduler.delays.size() >= 3); // handshake, watchdog, watchdog
    assertEquals("3", session.nextFrame());
    scheduler.advance(1_499);
    assertEquals(ConnectionState.CONNECTED, state());
    scheduler.advance(1);
    assertEquals(ConnectionState.RECONNECTING, state());
    assertEquals(ConnectionReason.PING_TIMEOUT, changes.get(changes.size() - 1).reason());
  }

  @Test
  void backoffDoublesWithFullJitterAndResetsOnlyAfterAConnectionTheGatewayAnswered() throws Exception {
    gateway.openPacket = FakeGateway.openPacket(1_000, 500);
    CompletableFuture<Void> connected = engine.connect("good-jwt");
    scheduler.pumpUntil("connected", connected::isDone);
    gateway.nextSession();

    gateway.openPacket = "6"; // the next handshakes fail: NOOP is not an OPEN packet
    scheduler.advance(1_500);
    assertEquals(ConnectionState.RECONNECTING, state());
    assertEquals(List.of(250L), reconnectDelays());

    scheduler.advance(250); // attempt 1 opens, fails
    gateway.nextSession();
    scheduler.pumpUntil("second backoff", () -> reconnectDelays().size() == 2);
    assertEquals(List.of(250L, 500L), reconnectDelays());

    scheduler.advance(500); // attempt 2 opens, fails
    gateway.nextSession();
    scheduler.pumpUntil("third backoff", () -> reconnectDelays().size() == 3);
    assertEquals(List.of(250L, 500L, 1_000L), reconnectDelays());

    gateway.openPacket = FakeGateway.openPacket(1_000, 500);
    scheduler.advance(999);
    assertEquals(ConnectionState.RECONNECTING, state());
    scheduler.advance(1);
    gateway.nextSession();
    scheduler.pumpUntil("reconnected", () -> state() == ConnectionState.CONNECTED);

    scheduler.advance(1_500); // lost at once: a gateway that accepts and drops does not reset the backoff
    assertEquals(ConnectionState.RECONNECTING, state());
    assertEquals(List.of(250L, 500L, 1_000L, 2_000L), reconnectDelays());

    scheduler.advance(2_000);
    GatewaySession stable = gateway.nextSession();
    scheduler.pumpUntil("reconnected again", () -> state() == ConnectionState.CONNECTED);
    for (int i = 0; i < 11; i++) { // the gateway's pings prove the connection
      // the watchdog re-armed by this ping, and by nothing else: another timer of the connection may be set late
      long before = watchdogs();
      stable.send("2");
      scheduler.pumpUntil("ping " + i, () -> watchdogs() > before);
      scheduler.advance(1_000);
    }
    assertEquals(ConnectionState.CONNECTED, state());
    // Lost after a connection the gateway answered on: the backoff starts over. Time moves to the watchdog's
    // deadline (armed by the last ping, 1,000 ms ago) and no further: past it, the 250 ms backoff would fire
    // too, and a gateway that answers the new socket at once would make the state CONNECTED again.
    scheduler.advance(500);
    assertEquals(ConnectionState.RECONNECTING, state());
    assertEquals(List.of(250L, 500L, 1_000L, 2_000L, 250L), reconnectDelays());
  }

  /**
   * A network that cuts a working connection every half second (each connection accepted, one emit acknowledged,
   * then stalled): every loss follows a connection that proved itself, so the delay stays at the first step
   * instead of climbing to the 30 s cap (the rule of 10 s of stable connection climbed here).
   */
  @Test
  void aConnectionCutAfterAnAcknowledgedEmitStartsTheBackoffOver() throws Exception {
    gateway.openPacket = FakeGateway.openPacket(1_000, 500);
    CompletableFuture<Void> connected = engine.connect("good-jwt");
    scheduler.pumpUntil("connected", connected::isDone);
    List<Long> expected = new ArrayList<>();
    for (int cut = 0; cut < 8; cut++) {
      GatewaySession session = gateway.nextSession();
      scheduler.pumpUntil("connected " + cut, () -> state() == ConnectionState.CONNECTED);
      assertEquals("40{\"token\":\"good-jwt\"}", session.nextFrame());
      CompletableFuture<String> answer = engine.emitWithAck("send", "{}");
      scheduler.advance(0); // the actor emits
      session.ack(session.nextEmit("send"), "{}");
      scheduler.pumpUntil("acknowledged " + cut, answer::isDone);
      scheduler.advance(500);
      session.cancel(); // the network cuts
      final int lost = cut + 1;
      scheduler.pumpUntil("lost " + cut, () -> reconnectDelays().size() == lost);
      expected.add(250L);
      assertEquals(expected, reconnectDelays());
      scheduler.advance(250);
    }
  }

  /** A client that sends over REST emits nothing on its socket: a REST answer while connected is its proof. */
  @Test
  void aServiceAnswerOnAnotherRouteStartsTheBackoffOver() throws Exception {
    gateway.openPacket = FakeGateway.openPacket(1_000, 500);
    CompletableFuture<Void> connected = engine.connect("good-jwt");
    scheduler.pumpUntil("connected", connected::isDone);
    List<Long> expected = new ArrayList<>();
    for (int cut = 0; cut < 4; cut++) {
      GatewaySession session = gateway.nextSession();
      scheduler.pumpUntil("connected " + cut, () -> state() == ConnectionState.CONNECTED);
      engine.serviceAnswered(); // a REST send answered
      scheduler.advance(500);
      session.cancel();
      final int lost = cut + 1;
      scheduler.pumpUntil("lost " + cut, () -> reconnectDelays().size() == lost);
      expected.add(250L);
      assertEquals(expected, reconnectDelays());
      scheduler.advance(250);
    }
  }

  /**
   * A gateway that accepts each connection and closes it at once, before answering anything, proves nothing:
   * each attempt counts and the delay climbs towards its cap (no reconnect storm).
   */
  @Test
  void aGatewayThatAcceptsAndClosesAtOnceStillClimbsTheBackoff() throws Exception {
    gateway.openPacket = FakeGateway.openPacket(1_000, 500);
    CompletableFuture<Void> connected = engine.connect("good-jwt");
    scheduler.pumpUntil("connected", connected::isDone);
    long ceiling = 500;
    List<Long> expected = new ArrayList<>();
    for (int drop = 0; drop < 8; drop++) {
      GatewaySession session = gateway.nextSession();
      scheduler.pumpUntil("connected " + drop, () -> state() == ConnectionState.CONNECTED);
      session.close(); // the gateway closes right after accepting
      final int lost = drop + 1;
      scheduler.pumpUntil("lost " + drop, () -> reconnectDelays().size() == lost);
      expected.add(ceiling / 2);
      assertEquals(expected, reconnectDelays());
      scheduler.advance(ceiling / 2);
      ceiling = Math.min(30_000, ceiling * 2);
    }
    assertEquals(15_000L, expected.get(expected.size() - 1)); // half the 30 s cap
  }

  @Test
  void transitionsAreReportedInOrder() throws Exception {
    CompletableFuture<Void> connected = engine.connect("good-jwt");
    scheduler.pumpUntil("connected", connected::isDone);
    GatewaySession session = gateway.nextSession();
    session.close();
    scheduler.pumpUntil("reconnecting", () -> state() == ConnectionState.RECONNECTING);
    scheduler.advance(250);
    scheduler.pumpUntil("connected again", () -> state() == ConnectionState.CONNECTED);
    List<String> seen = new ArrayList<>();
    for (ConnectionStateChange c : changes) seen.add(c.previous() + ">" + c.current() + ":" + c.reason().code());
    assertEquals(List.of("DISCONNECTED>CONNECTING:connect", "CONNECTING>CONNECTED:connected",
        "CONNECTED>RECONNECTING:transport_closed", "RECONNECTING>CONNECTED:connected"), seen);
  }
}
