package dev.svc.chat.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Subscription;

/** Records a client's events in blocking queues, with {@code assertNext...} methods (after OkHttp's WebSocketRecorder). */
public final class EventRecorder {
  private final BlockingQueue<ConnectionStateChange> states = new LinkedBlockingQueue<>();
  private final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
  /** The names of the threads handlers ran on. */
  public final List<String> threads = new CopyOnWriteArrayList<>();
  public Subscription stateSubscription;
  public Subscription messageSubscription;

  public static EventRecorder attach(ChatClient client) {
    EventRecorder r = new EventRecorder();
    r.stateSubscription = client.on(EventType.CONNECTION_STATE, e -> {
      r.threads.add(Thread.currentThread().getName());
      r.states.add(e);
    });
    r.messageSubscription = client.on(EventType.NEW_MESSAGE, m -> {
      r.threads.add(Thread.currentThread().getName());
      r.messages.add(m);
    });
    return r;
  }

  /** Returns the next state change, asserting its new state. */
  public ConnectionStateChange assertNextState(ConnectionState expected) throws InterruptedException {
    ConnectionStateChange c = states.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertNotNull(c, "no state change to " + expected);
    assertEquals(expected, c.current(), "state change " + c);
    return c;
  }

  /** Returns the next state change, asserting its new state and reason. */
  public ConnectionStateChange assertNextState(ConnectionState expected, String reason) throws InterruptedException {
    ConnectionStateChange c = assertNextState(expected);
    assertEquals(reason, c.reason().code(), "reason of " + c);
    return c;
  }

  /** Skips state changes until one to {@code expected}. */
  public ConnectionStateChange awaitState(ConnectionState expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FakeGateway.TIMEOUT_SECONDS);
    while (true) {
      long left = deadline - System.nanoTime();
      ConnectionStateChange c = states.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
      assertNotNull(c, "never reached " + expected);
      if (c.current() == expected) return c;
    }
  }

  /** Asserts no state change was recorded so far, without waiting: call it after a marker that one would precede. */
  public void assertNoStateChange() {
    assertNull(states.poll(), "unexpected state change");
  }

  public Message assertNextMessage() throws InterruptedException {
    Message m = messages.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertNotNull(m, "no new-message event");
    return m;
  }

  /** Asserts no message was recorded so far, without waiting: call it after a marker that one would precede. */
  public void assertNoMessage() {
    assertNull(messages.poll(), "unexpected new-message event");
  }
}
