package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.reference.ReferenceServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A connection that stalls (TCP open, nothing arriving) is noticed within pingInterval + pingTimeout and
 * replaced, and what was sent meanwhile is recovered: the client's plain handler sees every message once.
 */
class LivenessTest {
  private ChatFixture chat;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws Exception {
    chat = new ChatFixture(ReferenceServer.builder().port(0)
        .pingInterval(Duration.ofMillis(500)).pingTimeout(Duration.ofSeconds(2)));
    proxy = FaultProxy.start("127.0.0.1", chat.server().port());
  }

  @AfterEach
  void stop() {
    try {
      chat.close();
    } finally {
      proxy.close();
    }
  }

  @Test
  void aStalledConnectionIsReplacedWithinPingIntervalPlusTimeoutAndNothingIsLost() throws Exception {
    String room = chat.admin().createRoom("stall", "alice", "bob");
    ChatClient alice = chat.newClient(SvcOptions.builder(proxy.apiUrl()).reconnectDelay(50, 200).build());
    RecordingHandler<ConnectionStateChange> states = ChatFixture.record(alice, EventType.CONNECTION_STATE);
    RecordingHandler<Message> messages = ChatFixture.record(alice, EventType.NEW_MESSAGE);
    RecordingHandler<RecoveryEvent> recoveries = ChatFixture.record(alice, EventType.RECOVERY);
    await(alice.connect("alice", chat.admin().mint("alice")));
    ChatClient bob = chat.connected("bob");
    await(bob.sendText(room, "before"));
    assertEquals("before", messages.next().text());

    proxy.stallAll(FaultProxy.Direction.BOTH, null); // until resumed: a half-dead connection
    long stalledAt = System.nanoTime();
    for (int i = 1; i <= 5; i++) await(bob.sendText(room, "during " + i));
    ConnectionStateChange lost = states.next(c -> c.current() == ConnectionState.RECONNECTING);
    long detectedMillis = (System.nanoTime() - stalledAt) / 1_000_000;
    assertEquals(ConnectionReason.PING_TIMEOUT, lost.reason(), lost.toString());
    // 500 ms + 2 s, plus the ping the stall caught in flight and slack for a loaded machine: far below the
    // minutes a TCP timeout would take
    assertTrue(detectedMillis < 15_000, "detected after " + detectedMillis + " ms");
    states.next(c -> c.current() == ConnectionState.CONNECTED); // a new TCP connection, not stalled

    List<String> texts = new ArrayList<>();
    for (int i = 1; i <= 5; i++) texts.add(messages.next().text());
    assertEquals(List.of("during 1", "during 2", "during 3", "during 4", "during 5"), texts);
    recoveries.next(r -> r.roomId() == null && r.phase() == RecoveryEvent.Phase.FINISHED && r.messages() == 5);
    await(bob.sendText(room, "after"));
    assertEquals("after", messages.next().text());
    messages.assertNoMore();
    proxy.resumeAll();
  }
}
