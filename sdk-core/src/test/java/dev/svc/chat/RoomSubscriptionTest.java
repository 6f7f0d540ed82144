package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.testing.FakeChatClient;
import org.junit.jupiter.api.Test;

class RoomSubscriptionTest {
  private static final String ROOM = "room-1";
  private final FakeChatClient client = new FakeChatClient();
  private final Recorder recorder = new Recorder();

  static Message msg(String room, long seq) {
    return Message.builder().id(room + "-m" + seq).roomId(room).seq(seq).senderId("u").clientMessageId("c" + seq)
        .addPart(MessagePart.text("t" + seq)).createdAt(seq).build();
  }

  static Room room() {
    return Room.builder().id(ROOM).memberIds(Collections.singletonList("me")).createdAt(0).build();
  }

  /** Records the listener's calls as strings, in order. */
  static final class Recorder implements RoomSubscriptionListener {
    final List<String> calls = new ArrayList<>();

    @Override
    public void onInitialMessages(List<Message> messages) {
      StringBuilder sb = new StringBuilder("initial");
      for (Message m : messages) sb.append(' ').append(m.seq());
      calls.add(sb.toString());
    }

    @Override
    public void onMessage(Message message) {
      calls.add("message " + message.seq());
    }

    @Override
    public void onMessageUpdated(Message message) {
      calls.add("updated " + message.seq() + " " + message.text());
    }

    @Override
    public void onError(Throwable error) {
      calls.add("error " + error.getClass().getSimpleName());
    }
  }

  @Test
  void joinsThenDeliversHistoryChronologicallyThenLiveMessagesOfThatRoomOnly() {
    RoomSubscription sub = Svc.createRoomSubscription(client, ROOM, "me", recorder);
    assertEquals(Collections.singletonList(ROOM), client.joins);
    assertTrue(client.historyQueries.isEmpty(), "history is loaded after the join");
    client.joinResults.poll().complete(room());
    assertEquals(50, client.historyQueries.get(0).limit());
    client.historyResults.poll().complete(new MessagePage(Arrays.asList(msg(ROOM, 2), msg(ROOM, 1)), false));
    client.emit(EventType.NEW_MESSAGE, msg("other-room", 3));
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 3));
    assertEquals(Arrays.asList("initial 1 2", "message 3"), recorder.calls);
    assertTrue(sub.isLive());
  }

  @Test
  void liveEventsDuringHistoryAreHeldBackAndNotDuplicated() {
    Svc.createRoomSubscription(client, ROOM, "me", recorder);
    client.joinResults.poll().complete(room());
    // while history loads: message 2 (also in the page), message 3 (not in it), an edit of 1, and an
    // update equal to what the page holds
    Message edited1 = msg(ROOM, 1).newBuilder().parts(Collections.singletonList(MessagePart.text("edited")))
        .editedAt(9L).build();
    Message reacted2 = msg(ROOM, 2).newBuilder().reaction("x", Collections.singletonList("u")).build();
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 2));
    client.emit(EventType.MESSAGE_UPDATED, edited1);
    client.emit(EventType.MESSAGE_UPDATED, reacted2);
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 3));
    assertTrue(recorder.calls.isEmpty());
    client.historyResults.poll().complete(new MessagePage(Arrays.asList(msg(ROOM, 1), reacted2), false));
    assertEquals(Arrays.asList("initial 1 2", "updated 1 edited", "message 3"), recorder.calls);
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 3)); // a duplicate delivery
    assertEquals(3, recorder.calls.size());
  }

  @Test
  void waitsForTheConnectionWhenNotConnectedYet() {
    client.setState(ConnectionState.DISCONNECTED);
    Svc.createRoomSubscription(client, ROOM, "me", recorder);
    assertTrue(client.joins.isEmpty());
    client.moveTo(ConnectionState.CONNECTING);
    client.moveTo(ConnectionState.CONNECTED);
    assertEquals(Collections.singletonList(ROOM), client.joins);
  }

  @Test
  void aRefusedJoinIsReportedOnceAndNothingFollows() {
    Svc.createRoomSubscription(client, ROOM, "me", recorder);
    client.joinResults.poll().completeExceptionally(new ApiException(403, "forbidden", "Not a member"));
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 1));
    assertEquals(Collections.singletonList("error ApiException"), recorder.calls);
    assertTrue(client.historyQueries.isEmpty());
  }

  @Test
  void destroyRemovesEveryHandlerAndStopsDelivery() {
    int before = client.handlerCount();
    RoomSubscription sub = Svc.createRoomSubscription(client, ROOM, "me", recorder);
    assertTrue(client.handlerCount() > before);
    sub.destroy();
    sub.destroy();
    assertEquals(before, client.handlerCount());
    client.joinResults.poll().complete(room());
    assertTrue(client.historyQueries.isEmpty() || recorder.calls.isEmpty());
    if (!client.historyResults.isEmpty()) {
      client.historyResults.poll().complete(new MessagePage(Collections.singletonList(msg(ROOM, 1)), false));
    }
    assertTrue(recorder.calls.isEmpty());
  }

  @Test
  void afterAReconnectItFetchesNothingItselfAndDeliversWhatTheClientsRecoveryDelivers() {
    Svc.createRoomSubscription(client, ROOM, "me", recorder);
    client.joinResults.poll().complete(room());
    client.historyResults.poll().complete(new MessagePage(Collections.singletonList(msg(ROOM, 1)), false));
    client.moveTo(ConnectionState.RECONNECTING);
    client.moveTo(ConnectionState.CONNECTED);
    // the client's recovery delivers the missed messages (2, 3) before the live one (4), once each
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 2));
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 3));
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 4));
    assertEquals(1, client.historyQueries.size(), "no back-fill of its own: it cannot skip a gap on failure");
    assertEquals(1, client.joins.size());
    assertEquals(Arrays.asList("initial 1", "message 2", "message 3", "message 4"), recorder.calls);
  }

  @Test
  void theListenerIsNeverCalledWhileTheSubscriptionHoldsItsLock() {
    final java.util.concurrent.atomic.AtomicReference<RoomSubscription> sub =
        new java.util.concurrent.atomic.AtomicReference<>();
    final List<Boolean> underLock = new ArrayList<>();
    sub.set(Svc.createRoomSubscription(client, ROOM, "me", new RoomSubscriptionListener() {
      @Override
      public void onInitialMessages(List<Message> messages) {
        underLock.add(Thread.holdsLock(sub.get()));
      }

      @Override
      public void onMessage(Message message) {
        underLock.add(Thread.holdsLock(sub.get()));
      }

      @Override
      public void onMessageUpdated(Message message) {
        underLock.add(Thread.holdsLock(sub.get()));
      }
    }));
    client.joinResults.poll().complete(room());
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 2)); // held while history loads
    client.historyResults.poll().complete(new MessagePage(Collections.singletonList(msg(ROOM, 1)), false));
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 3));
    client.emit(EventType.MESSAGE_UPDATED, msg(ROOM, 3));
    assertEquals(Arrays.asList(false, false, false, false), underLock);
  }

  @Test
  void aListenerThatThrowsIsLoggedThroughTheClientsLogger() {
    dev.svc.chat.testing.RecordingLogger logger = new dev.svc.chat.testing.RecordingLogger();
    dev.svc.chat.internal.util.ClientLoggers.register(client, logger);
    Svc.createRoomSubscription(client, ROOM, "me", new RoomSubscriptionListener() {
      @Override
      public void onMessage(Message message) {
        throw new IllegalStateException("app bug " + message.seq());
      }
    });
    client.joinResults.poll().complete(room());
    client.historyResults.poll().complete(new MessagePage(Collections.<Message>emptyList(), false));
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 1));
    assertTrue(logger.mentions("RoomSubscriptionListener"), "the listener's exception was swallowed");
  }

  @Test
  void aFailingListenerDoesNotStopDelivery() {
    final List<Long> seen = new ArrayList<>();
    Svc.createRoomSubscription(client, ROOM, "me", new RoomSubscriptionListener() {
      @Override
      public void onMessage(Message message) {
        seen.add(message.seq());
        throw new IllegalStateException("app bug");
      }
    });
    client.joinResults.poll().complete(room());
    client.historyResults.poll().complete(new MessagePage(Collections.<Message>emptyList(), false));
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 1));
    client.emit(EventType.NEW_MESSAGE, msg(ROOM, 2));
    assertEquals(Arrays.asList(1L, 2L), seen);
  }

  @Test
  void aClosedClientIsAnError() {
    client.setState(ConnectionState.CLOSED);
    RoomSubscription sub = Svc.createRoomSubscription(client, ROOM, "me", recorder);
    assertEquals(Collections.singletonList("error ChatStateException"), recorder.calls);
    assertFalse(sub.isLive());
    assertSame(ROOM, sub.roomId());
  }

  @Test
  void aConnectionLostWhileJoiningIsNotAnErrorAndTheJoinIsTriedAgain() {
    Svc.createRoomSubscription(client, ROOM, "me", recorder);
    client.setState(ConnectionState.RECONNECTING);
    client.joinResults.poll().completeExceptionally(new TransportException("connection lost"));
    assertEquals(2, client.joins.size(), "joinRoom waits while reconnecting, so it is asked again at once");
    client.setState(ConnectionState.DISCONNECTED); // the app disconnected
    client.joinResults.poll().completeExceptionally(new ChatStateException("disconnected"));
    assertEquals(2, client.joins.size());
    client.moveTo(ConnectionState.CONNECTED);
    assertEquals(3, client.joins.size());
    client.joinResults.poll().complete(room());
    client.historyResults.poll().complete(new MessagePage(Collections.singletonList(msg(ROOM, 1)), false));
    assertEquals(Collections.singletonList("initial 1"), recorder.calls);
  }
}
