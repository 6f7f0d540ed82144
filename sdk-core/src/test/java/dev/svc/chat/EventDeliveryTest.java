package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.EventRecorder;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatedExecutor;
import dev.svc.chat.testing.GatewaySession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Delivery of gateway events to handlers: executor, order, removal, and resistance to bad frames. */
class EventDeliveryTest {
  private FakeGateway gateway;
  private GatedExecutor executor;
  private ChatClient client;
  private GatewaySession session;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    executor = new GatedExecutor(4); // multi-threaded on purpose: order must hold anyway
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).callbackExecutor(executor).build());
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
    gateway.close();
    executor.close();
  }

  private EventRecorder connect() throws Exception {
    EventRecorder events = EventRecorder.attach(client);
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    return events;
  }

  @Test
  void deliversMessagesInOrderOnTheCallbackExecutor() throws Exception {
    EventRecorder events = connect();
    for (int i = 1; i <= 200; i++) session.send(Frames.newMessage("m" + i, "r1", i, "text " + i));
    for (int i = 1; i <= 200; i++) {
      Message m = events.assertNextMessage();
      assertEquals(i, m.seq());
      assertEquals("text " + i, m.text());
    }
    for (String thread : events.threads) assertTrue(thread.startsWith("test-callbacks-"), thread);
  }

  @Test
  void removedHandlerGetsNothingMore() throws Exception {
    EventRecorder events = connect();
    BlockingQueue<Message> second = new LinkedBlockingQueue<>();
    Subscription other = client.on(EventType.NEW_MESSAGE, second::add);
    session.send(Frames.newMessage("m1", "r1", 1, "a"));
    events.assertNextMessage();
    assertEquals("m1", second.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS).id());
    events.messageSubscription.remove();
    events.messageSubscription.remove(); // idempotent
    session.send(Frames.newMessage("m2", "r1", 2, "b"));
    Message m2 = second.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertEquals("m2", m2.id());
    events.assertNoMessage(); // delivered after m2 reached the other handler: none came
    other.remove();
  }

  @Test
  void aThrowingHandlerDoesNotStopOthers() throws Exception {
    EventRecorder events = connect();
    client.on(EventType.NEW_MESSAGE, m -> {
      throw new RuntimeException("boom");
    });
    EventRecorder after = EventRecorder.attach(client);
    session.send(Frames.newMessage("m1", "r1", 1, "a"));
    events.assertNextMessage();
    assertEquals("m1", after.assertNextMessage().id());
  }

  @Test
  void skipsBinaryAttachmentsAndUnknownEventsWithoutReplacingTheConnection() throws Exception {
    EventRecorder events = connect();
    session.send("42[\"unknown-event\",{}]"); // an event of a later service version
    session.send("451-[\"new-message\",{\"_placeholder\":true,\"num\":0}]");
    session.sendBinary((byte) 1, (byte) 2, (byte) 3, (byte) 4);
    session.send("462-7[{\"_placeholder\":true,\"num\":0},{\"_placeholder\":true,\"num\":1}]");
    session.sendBinary((byte) 9);
    session.sendBinary((byte) 9, (byte) 9);
    session.send(Frames.newMessage("good", "r1", 1, "after the noise"));
    assertEquals("good", events.assertNextMessage().id());
    events.assertNoMessage(); // the noise came before "good", and events keep the frames' order: none from it
    assertEquals(ConnectionState.CONNECTED, client.state());
    session.send("2");
    assertEquals("3", session.nextFrame()); // a replaced connection would have been dropped before this ping
    gateway.assertNoSession();
  }

  @Test
  void eventsForOtherNamespacesAreIgnored() throws Exception {
    EventRecorder events = connect();
    session.send("42/admin,[\"new-message\"," + Frames.messageJson("x", "r1", 1, "admin") + "]");
    session.send(Frames.newMessage("m1", "r1", 1, "a"));
    assertEquals("m1", events.assertNextMessage().id());
  }

  @Test
  void futuresCompleteOnTheCallbackExecutor() throws Exception {
    GatedExecutor single = new GatedExecutor(1);
    try (ChatClient c = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).callbackExecutor(single).build())) {
      single.hold();
      CompletableFuture<Void> connected = c.connect("alice", "good-jwt");
      List<String> threads = new CopyOnWriteArrayList<>();
      CompletableFuture<Void> seen = connected.whenComplete((v, e) -> threads.add(Thread.currentThread().getName()));
      single.release();
      gateway.nextSession().awaitConnect();
      Await.value(seen);
      assertTrue(threads.get(0).startsWith("test-callbacks-"), threads.toString());
    } finally {
      single.close();
    }
  }
}
