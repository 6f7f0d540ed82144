package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.reference.TestBuilders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A sender in a direct message (a room of two) is never held for its room's readers. Both readers of the room
 * stop reading: the other member, and the sender's own second device (its laptop on a dead network), so every
 * reader the room has is behind. The sender's phone sends texts one after the other over REST while both stay
 * stalled; every answer must arrive while they still are, each stalled connection's queue in the server stays
 * within its bound (it is cut there), and once the network resumes both stalled clients hold every message exactly
 * once (live or recovered from history).
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SenderNeverWaitsForReadersTest {
  private static final int SENDS = 1_200;
  private static final int QUEUE_LIMIT = 200;
  private static final String TEXT = "y".repeat(3_990);
  /**
   * The longest the whole run of sends may take while the readers are stalled, under the stalled clients' own
   * ping timeout (which would end the stall). Answered at once, the sends take some 20 s on a loaded machine; an
   * answer held for the readers for as little as 1 s, from a queue of 16 frames to its bound, would pass it. The
   * sends must outgrow what the kernel buffers first (the server's send buffer grows to some 2 MB on loopback).
   */
  private static final Duration SENDING = Duration.ofSeconds(120);

  @Test
  void aDirectMessageSendersAnswersDoNotWaitWhileBothReadersAreStalled() throws Exception {
    // Pings far apart: the stalled clients' own watchdogs must not end the stall before the sends' deadline.
    ReferenceServer.Builder builder = ReferenceServer.builder().port(0).sendRateLimit(100_000, 100_000)
        .pingInterval(Duration.ofSeconds(90)).pingTimeout(Duration.ofSeconds(90));
    try (ChatFixture fixture = new ChatFixture(TestBuilders.outboundQueueLimit(builder, QUEUE_LIMIT));
        FaultProxy proxy = FaultProxy.start("127.0.0.1", fixture.server().port())) {
      Admin admin = fixture.admin();
      String room = admin.createRoom("dm", "alice", "bob");
      ChatClient bob = fixture.newClient(SvcOptions.builder(proxy.apiUrl()).build());
      ChatClient aliceLaptop = fixture.newClient(SvcOptions.builder(proxy.apiUrl()).build());
      ChatClient alicePhone =
          fixture.newClient(SvcOptions.builder(fixture.server().apiUrl()).socketSends(false).build());
      Map<String, Integer> bobGot = counter(bob, room);
      Map<String, Integer> laptopGot = counter(aliceLaptop, room);
      await(bob.connect("bob", admin.mint("bob")));
      await(aliceLaptop.connect("alice", admin.mint("alice")));
      await(alicePhone.connect("alice", admin.mint("alice")));

      // Nothing the server writes reaches bob or alice's laptop from now on: their sockets back up.
      proxy.stallAll(FaultProxy.Direction.DOWNSTREAM, null);
      List<String> sent = new ArrayList<>();
      long frameBound = 0;
      long deadline = System.nanoTime() + SENDING.toNanos();
      for (int i = 0; i < SENDS && System.nanoTime() < deadline; i++) {
        Message m = await(alicePhone.sendMessage(room, List.of(MessagePart.text(TEXT + " " + i))));
        sent.add(m.id());
        assertTrue(bobGot.isEmpty() && laptopGot.isEmpty(), "a stalled client received something at send " + i);
        if (i % 50 == 49) {
          frameBound = Math.max(frameBound, checkQueues(admin, i));
        }
      }
      assertEquals(SENDS, sent.size(), "sends answered in " + SENDING.toSeconds() + " s while both readers of the"
          + " room were stalled (each answered at once, none held for them)");
      assertTrue(bobGot.isEmpty() && laptopGot.isEmpty(), "both readers stayed stalled through the sends");
      assertTrue(frameBound > 0, "the stalled connections' queues were seen holding frames");
      // The stalled connections passed their bound and were cut: the server holds nothing for them any more.
      until(() -> stalledConnections(admin) == 0, "the stalled connections cut at their queue's bound");

      proxy.resumeAll();
      until(() -> bobGot.size() == SENDS && laptopGot.size() == SENDS,
          "every message reached bob and alice's laptop once the network resumed");
      for (Map<String, Integer> got : List.of(bobGot, laptopGot)) {
        assertEquals(new java.util.HashSet<>(sent), got.keySet());
        got.forEach((id, n) -> assertEquals(1, n, "message " + id + " delivered " + n + " times"));
      }
    }
  }

  /** Counts, per message id, the {@code NEW_MESSAGE} events of {@code room} that {@code client} delivers. */
  private static Map<String, Integer> counter(ChatClient client, String room) {
    Map<String, Integer> got = new ConcurrentHashMap<>();
    client.on(EventType.NEW_MESSAGE, m -> {
      if (m.roomId().equals(room)) got.merge(m.id(), 1, Integer::sum);
    });
    return got;
  }

  /**
   * Asserts that no connection's server queue holds more than its bound of frames (in bytes: a frame here is under
   * 5 KB); returns the most bytes queued for one connection.
   */
  private static long checkQueues(Admin admin, int send) throws Exception {
    long most = 0;
    for (JsonNode connection : connections(admin)) {
      long bytes = connection.path("queuedBytes").asLong(-1);
      assertTrue(bytes >= 0, "queuedBytes shown: " + connection);
      assertTrue(bytes <= QUEUE_LIMIT * 5_000L, "queue within its bound at send " + send + ": " + connection);
      most = Math.max(most, bytes);
    }
    return most;
  }

  /** The connections of bob, and of alice beyond her phone's, that the server still holds. */
  private static int stalledConnections(Admin admin) throws Exception {
    int alice = 0;
    int bob = 0;
    for (JsonNode connection : connections(admin)) {
      if ("bob".equals(connection.path("userId").asText())) bob++;
      if ("alice".equals(connection.path("userId").asText())) alice++;
    }
    return bob + Math.max(0, alice - 1);
  }

  private static List<JsonNode> connections(Admin admin) throws Exception {
    Admin.Answer state = admin.call("GET", "/v1/dev/state", null, admin.apiKeyHeader());
    assertEquals(200, state.status(), state.body().toString());
    List<JsonNode> all = new ArrayList<>();
    for (JsonNode user : state.body().path("users")) {
      user.path("connections").forEach(all::add);
    }
    return all;
  }

  /** Waits for {@code condition}, polled every 20 ms, for at most 60 s. */
  private static void until(ThrowingCondition condition, String what) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.holds()) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting for: " + what);
      TimeUnit.MILLISECONDS.sleep(20); // polling a condition, with a deadline
    }
  }

  @FunctionalInterface
  private interface ThrowingCondition {
    boolean holds() throws Exception;
  }
}
