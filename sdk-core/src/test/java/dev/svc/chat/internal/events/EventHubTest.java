package dev.svc.chat.internal.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Subscription;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import org.junit.jupiter.api.Test;

/** The order in which the app sees state changes and messages, on one thread the test drives (Android's). */
class EventHubTest {
  private final ArrayDeque<Runnable> thread = new ArrayDeque<>();
  private final Executor oneThread = thread::add;
  private final Log log = new Log(ChatLogger.NONE);
  private final EventHub hub = new EventHub(CallbackExecutor.on(oneThread, log), log, 2);
  private final List<String> seen = new ArrayList<>();

  private static Message message(long seq) {
    return Message.builder().id("m" + seq).roomId("r1").seq(seq).rev(seq).senderId("bob").clientMessageId("c" + seq)
        .addPart(MessagePart.text("t")).createdAt(1).build();
  }

  private static ConnectionStateChange lost() {
    return new ConnectionStateChange(ConnectionState.CONNECTED, ConnectionState.RECONNECTING,
        ConnectionReason.PING_TIMEOUT, null, 1, 100);
  }

  private void runAll() {
    for (Runnable next = thread.poll(); next != null; next = thread.poll()) next.run();
  }

  @Test
  void aStateChangeOvertakesQueuedMessagesButNoneThatFollowIt() {
    hub.on(EventType.NEW_MESSAGE, m -> seen.add("message " + m.seq()));
    hub.on(EventType.CONNECTION_STATE, c -> seen.add("state " + c.current()));
    hub.publish(EventType.NEW_MESSAGE, message(1));
    hub.publish(EventType.NEW_MESSAGE, message(2));
    hub.publishAhead(EventType.CONNECTION_STATE, lost());
    hub.publish(EventType.NEW_MESSAGE, message(3));
    runAll();
    assertEquals(Arrays.asList("state RECONNECTING", "message 1", "message 2", "message 3"), seen);
  }

  @Test
  void whenCaughtUpWaitsUntilFewerEventsThanTheMarkWait() {
    hub.on(EventType.NEW_MESSAGE, m -> seen.add("message " + m.seq()));
    hub.publish(EventType.NEW_MESSAGE, message(1));
    hub.publish(EventType.NEW_MESSAGE, message(2));
    hub.publish(EventType.NEW_MESSAGE, message(3));
    hub.whenCaughtUp(() -> seen.add("caught up"));
    assertEquals(Arrays.asList(), seen);
    runAll();
    assertEquals(Arrays.asList("message 1", "message 2", "caught up", "message 3"), seen);
    hub.whenCaughtUp(() -> seen.add("at once"));
    assertEquals("at once", seen.get(seen.size() - 1));
  }

  @Test
  void anEventGoesToTheHandlersRegisteredWhenItWasPublishedThatAreStillRegistered() {
    Subscription a = hub.on(EventType.NEW_MESSAGE, m -> seen.add("a " + m.seq()));
    Subscription b = hub.on(EventType.NEW_MESSAGE, m -> seen.add("b " + m.seq()));
    hub.on(EventType.NEW_MESSAGE, m -> seen.add("c " + m.seq()));
    hub.publish(EventType.NEW_MESSAGE, message(1));
    hub.on(EventType.NEW_MESSAGE, m -> seen.add("d " + m.seq())); // after 1 was published: gets 2 only
    b.remove(); // before 1 was handled: skipped for it too
    hub.publish(EventType.NEW_MESSAGE, message(2));
    runAll();
    assertEquals(Arrays.asList("a 1", "c 1", "a 2", "c 2", "d 2"), seen);
    b.remove(); // twice: nothing changes
    a.remove();
    seen.clear();
    hub.publish(EventType.NEW_MESSAGE, message(3));
    runAll();
    assertEquals(Arrays.asList("c 3", "d 3"), seen);
    assertTrue(hub.hasHandlers(EventType.NEW_MESSAGE));
    assertFalse(hub.hasHandlers(EventType.TYPING));
  }
}
