package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.internal.RealChatClient;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.transport.jdk.JdkTransports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clients whose handlers are blocked, without recovery (their inbound gates wait for as long as the backlog stays
 * high), on a JDK transport of two reader threads: another client on the same transport still gets its messages
 * and answers its pings.
 */
class SlowHandlersOnJdkTransportTest {
  /** Past the gate's high water mark (1,024 frames and events). */
  private static final int FLOOD = 1_100;
  private static final int HIGH_WATER = 1_024;

  private final ExecutorService readers = Executors.newFixedThreadPool(2);
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<ChatClient> clients = new ArrayList<>();
  private FakeGateway gateway;

  @AfterEach
  void tearDown() throws Exception {
    release.countDown();
    for (ChatClient c : clients) c.close();
    if (gateway != null) gateway.close();
    readers.shutdownNow();
    assertTrue(readers.awaitTermination(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void twoBlockedClientsDoNotStopAThirdsReading() throws Exception {
    gateway = new FakeGateway();
    SvcOptions options = SvcOptions.builder(gateway.apiUrl()).transport(JdkTransports.on(readers))
        .recoverMissedEvents(false).build();
    BlockingQueue<Long> thirdSeen = new LinkedBlockingQueue<>();
    GatewaySession first = connect(Svc.init(options), null);
    GatewaySession second = connect(Svc.init(options), null);
    GatewaySession third = connect(Svc.init(options), thirdSeen);
    flood(first);
    flood(second);
    awaitBacklog(clients.get(0));
    awaitBacklog(clients.get(1));
    third.send(Frames.newMessage("m1", "r1", 1, "hello"));
    assertEquals(1L, thirdSeen.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS),
        "the third client's message waited behind the blocked clients' readers");
    third.send("2"); // a PING
    assertTrue(third.awaitPong(TimeUnit.SECONDS.toMillis(FakeGateway.TIMEOUT_SECONDS)), "no PONG");
  }

  /** Connects {@code client}; its messages go to {@code seen}, or block until the test ends when it is null. */
  private GatewaySession connect(ChatClient client, BlockingQueue<Long> seen) throws Exception {
    clients.add(client);
    BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
    client.on(EventType.CONNECTION_STATE, c -> states.add(c.current()));
    client.on(EventType.NEW_MESSAGE, m -> {
      if (seen != null) {
        seen.add(m.seq());
        return;
      }
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    while (true) {
      ConnectionState s = states.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(s, "not connected within " + FakeGateway.TIMEOUT_SECONDS + " s");
      if (s == ConnectionState.CONNECTED) return session;
    }
  }

  private static void flood(GatewaySession session) {
    for (long seq = 1; seq <= FLOOD; seq++) session.send(Frames.newMessage("m" + seq, "r1", seq, "t" + seq));
  }

  /** Waits until the client's reader reached the gate's mark (it may stop up to 64 below it). */
  private static void awaitBacklog(ChatClient client) {
    RealChatClient real = (RealChatClient) client;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FakeGateway.TIMEOUT_SECONDS);
    while (real.pendingDeliveries() < HIGH_WATER - 64) {
      assertTrue(System.nanoTime() < deadline, "the backlog stayed at " + real.pendingDeliveries());
      Thread.yield();
    }
  }
}
