package dev.svc.chat.internal.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChangesPage;
import dev.svc.chat.ChatLogger;
import dev.svc.chat.ClientError;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.Room;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.SerialScheduler;
import dev.svc.chat.internal.realtime.ReconnectPolicy;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Recovery} on virtual time against a fake service: what it delivers, in which order, and what it asks
 * for, when live events skip, race a back-fill, repeat, or never come.
 */
class RecoveryTest {
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private final FakeService service = new FakeService();
  private final List<String> delivered = new ArrayList<>();
  private final List<ClientError> errors = new ArrayList<>();
  private final List<RecoveryEvent> recoveries = new ArrayList<>();
  /** While true the app's handlers are behind: reads that wait for them are held in {@link #waiting}. */
  private boolean handlersBehind;
  private final List<Runnable> waiting = new ArrayList<>();
  private long wallClock = 1_000_000;
  private Recovery recovery;

  @BeforeEach
  void setUp() {
    SerialScheduler actor = new SerialScheduler(Runnable::run, time, new Log(ChatLogger.NONE));
    DeliverySink sink = new DeliverySink() {
      @Override
      public <T> void publish(EventType<T> type, T payload) {
        if (payload instanceof Message) {
          Message m = (Message) payload;
          delivered.add((type == EventType.NEW_MESSAGE ? "new " : "upd ") + m.roomId() + "#" + m.seq() + "@" + m.rev());
        } else if (payload instanceof Receipt) {
          Receipt r = (Receipt) payload;
          delivered.add("read " + r.roomId() + " " + r.userId() + "@" + r.seq());
        } else if (payload instanceof RecoveryEvent) {
          recoveries.add((RecoveryEvent) payload);
        }
      }

      @Override
      public void report(ClientError error) {
        errors.add(error);
      }

      // no @Override: the hook by which recovery waits for the handlers (a no-op where it does not exist)
      public void whenHandled(Runnable next) {
        if (handlersBehind) {
          waiting.add(next);
        } else {
          next.run();
        }
      }
    };
    recovery = new Recovery(actor, service, sink, new ReconnectPolicy(100, 1_000, new Random(1)), () -> wallClock,
        true, new Log(ChatLogger.NONE));
  }

  private List<String> only(String roomId) {
    List<String> out = new ArrayList<>();
    for (String d : delivered) {
      if (d.contains(" " + roomId + "#") || d.startsWith("read " + roomId + " ")) out.add(d);
    }
    return out;
  }

  /** Connects with the rooms listed as they are now: the starting point, nothing delivered. */
  private void firstConnect() {
    recovery.onConnected();
    delivered.clear();
  }

  @Test
  void theFirstListingIsTheStartingPointAndLiveMessagesFollowIt() {
    service.send("r1", 3);
    firstConnect();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#4@4"), delivered);
    assertEquals(1, service.listings);
  }

  @Test
  void aLiveMessageSentBeforeTheListingWasAnsweredIsStillDelivered() {
    service.send("r1", 2);
    service.holdListing = true; // the listing is answered after message 3 was sent and before it arrives
    recovery.onConnected();
    service.send("r1", 1);
    service.answerListing();
    recovery.onNewMessage(service.message("r1", 3));
    recovery.onNewMessage(service.message("r1", 3)); // a repeat
    assertEquals(Arrays.asList("new r1#3@3"), delivered);
  }

  @Test
  void aListingThatLaggedTheFirstLiveMessageThenABackfillThenALossDeliversEachSeqOnce() {
    service.send("r1", 2);
    service.holdListing = true;
    recovery.onConnected();
    service.send("r1", 2); // 3 and 4, sent after the connection: the late listing counts them
    service.answerListing();
    recovery.onNewMessage(service.message("r1", 3)); // live
    service.send("r1", 3); // 5..7; only 7 arrives live (4, 5 and 6 are back-filled)
    recovery.onNewMessage(service.message("r1", 7));
    recovery.onConnectionLost();
    recovery.onConnected();
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4", "new r1#5@5", "new r1#6@6", "new r1#7@7"), delivered);
  }

  @Test
  void aMessageSentAndEditedBeforeTheFirstListingWasAnsweredGetsItsEditLive() {
    service.send("r1", 2);
    service.holdListing = true;
    recovery.onConnected();
    service.send("r1", 1); // 3@3, sent after the connection
    service.edit("r1", 3); // 3@4: the late listing says rev 4
    service.answerListing();
    recovery.onNewMessage(service.message("r1", 3, 3)); // the live copies follow: first the new message
    recovery.onMessageUpdated(service.message("r1", 3)); // then its edit
    time.advance(60_000);
    List<String> got = only("r1");
    assertEquals("r1#3@4", got.get(got.size() - 1).substring(4), "the edit was delivered: " + got);
  }

  @Test
  void anEditOfAnOlderMessageMadeBeforeTheFirstListingWasAnsweredIsDeliveredLiveOnce() {
    service.send("r1", 2);
    service.holdListing = true;
    recovery.onConnected();
    service.edit("r1", 1); // 1@3, made after the connection: the late listing says rev 3
    service.answerListing();
    recovery.onMessageUpdated(service.message("r1", 1));
    recovery.onMessageUpdated(service.message("r1", 1)); // a repeat (a second connection's copy)
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    time.advance(60_000);
    assertEquals(Arrays.asList("upd r1#1@3", "new r1#3@4"), only("r1"));
  }

  @Test
  void aBackfillBeforeTheFirstLossIsNotDeliveredAgainAfterIt() {
    service.send("r1", 3);
    firstConnect(); // rooms started by the first listing, until the first loss
    List<Long> sent = service.send("r1", 3); // 4..6; only 6 arrives live: 4 and 5 are back-filled
    recovery.onNewMessage(service.message("r1", sent.get(2)));
    assertEquals(Arrays.asList("new r1#4@4", "new r1#5@5", "new r1#6@6"), delivered);
    recovery.onConnectionLost();
    recovery.onConnected();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#4@4", "new r1#5@5", "new r1#6@6", "new r1#7@7"), delivered,
        "each seq once across the first loss");
  }

  @Test
  void aLiveMessageThatSkipsASeqHoldsItBackFillsAndDeliversInOrder() {
    service.send("r1", 1);
    firstConnect();
    List<Long> sent = service.send("r1", 4); // 2..5; only 5 arrives live
    recovery.onNewMessage(service.message("r1", sent.get(3)));
    assertEquals(Arrays.asList("new r1#2@2", "new r1#3@3", "new r1#4@4", "new r1#5@5"), delivered);
    RecoveryEvent done = recoveries.get(recoveries.size() - 1);
    assertEquals(RecoveryEvent.Phase.FINISHED, done.phase());
    assertEquals("r1", done.roomId());
    assertEquals(4, done.messages()); // 2 to 5: the page carried 5 too, which had arrived live and was held
  }

  @Test
  void afterALossEveryRoomIsCaughtUpWithMessagesChangesAndReceipts() {
    service.send("r1", 2);
    service.send("r2", 1);
    firstConnect();
    recovery.onConnectionLost();
    service.send("r1", 2); // 3, 4
    service.edit("r1", 1); // rev 5
    service.edit("r2", 1); // rev 2
    service.read("r1", "bob", 4, wallClock + 10);
    recovery.onConnected();
    // in order within each room (rooms are caught up side by side)
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4", "upd r1#1@5", "read r1 bob@4"), only("r1"));
    assertEquals(Arrays.asList("upd r2#1@2"), only("r2"));
    RecoveryEvent whole = recoveries.get(recoveries.size() - 1);
    assertEquals(null, whole.roomId());
    assertEquals(RecoveryEvent.Phase.FINISHED, whole.phase());
    assertEquals(2, whole.messages());
    assertEquals(2, whole.updates());
    assertEquals(1, whole.receipts());
  }

  @Test
  void aFailedBackfillIsRetriedUntilItSucceedsAndNothingIsSkipped() {
    service.send("r1", 1);
    firstConnect();
    recovery.onConnectionLost();
    service.send("r1", 300);
    service.failureRate = 0.7; // seven requests in ten fail
    recovery.onConnected();
    for (int i = 0; i < 2_000 && delivered.size() < 300; i++) time.advance(1_000);
    // live messages keep coming during the retries and are merged in order
    assertEquals(300, delivered.size(), "every missed message, whatever failed");
    for (int i = 0; i < 300; i++) assertEquals("new r1#" + (i + 2) + "@" + (i + 2), delivered.get(i));
    assertTrue(errors.stream().anyMatch(e -> e.kind() == ClientError.Kind.RECOVERY_RETRY));
  }

  @Test
  void liveMessagesDuringABackfillAreHeldAndMergedInOrderWithoutRepeats() {
    service.send("r1", 1);
    firstConnect();
    recovery.onConnectionLost();
    service.send("r1", 3); // 2, 3, 4
    service.holdMessages = true;
    recovery.onConnected();
    service.send("r1", 2); // 5, 6 arrive live while the back-fill is under way
    recovery.onNewMessage(service.message("r1", 5));
    recovery.onNewMessage(service.message("r1", 4)); // a late live copy of a missed one
    recovery.onNewMessage(service.message("r1", 6));
    assertEquals(0, delivered.size(), "held while the room back-fills");
    service.answerMessages();
    assertEquals(Arrays.asList("new r1#2@2", "new r1#3@3", "new r1#4@4", "new r1#5@5", "new r1#6@6"),
        delivered.subList(0, 5));
  }

  @Test
  void anUpdateIsDeliveredOncePerRevisionAndNeverGoesBack() {
    service.send("r1", 1);
    firstConnect();
    Message v2 = service.message("r1", 1, service.edit("r1", 1));
    Message v3 = service.message("r1", 1, service.edit("r1", 1));
    recovery.onMessageUpdated(v3);
    recovery.onMessageUpdated(v2); // older, late
    recovery.onMessageUpdated(v3); // repeat
    time.advance(1_000); // the revision gap (2 skipped while 3 applied) is read, and holds nothing newer
    assertEquals(Arrays.asList("upd r1#1@3"), delivered);
  }

  @Test
  void aRoomFirstSeenAfterALossDeliversWhatWasSentSinceTheLossNotItsHistory() {
    firstConnect();
    recovery.onConnectionLost();
    long lostAt = wallClock;
    service.now = lostAt - 3_600_000;
    service.send("new-room", 250); // an hour before the loss: history
    service.now = lostAt + 1_000;
    service.send("new-room", 3); // while away
    recovery.onConnected();
    assertEquals(Arrays.asList("new new-room#251@251", "new new-room#252@252", "new new-room#253@253"), delivered);
  }

  @Test
  void aRoomTheUserCanNoLongerReadIsReportedAndForgotten() {
    service.send("r1", 1);
    firstConnect();
    recovery.onConnectionLost();
    service.send("r1", 1);
    service.forbidden = true;
    recovery.onConnected();
    assertTrue(errors.stream().anyMatch(e -> e.kind() == ClientError.Kind.ROOM_ACCESS_LOST
        && "r1".equals(e.roomId())));
    assertEquals(0, recovery.roomCount());
  }

  @Test
  void theMemoryOfRoomsIsBounded() {
    firstConnect();
    for (int i = 0; i < RoomLedgers.MAX_ROOMS + 5_000; i++) {
      recovery.onNewMessage(Message.builder().id("m" + i).roomId("room-" + i).seq(1).rev(1).senderId("a")
          .clientMessageId("c" + i).addPart(MessagePart.text("x")).createdAt(1).build());
    }
    assertEquals(RoomLedgers.MAX_ROOMS, recovery.roomCount());
  }

  @Test
  void aBackfillReadsItsNextPageOnlyOnceTheHandlersCaughtUp() {
    service.send("r1", 1);
    firstConnect();
    List<Long> sent = service.send("r1", 3_000); // only the last one arrives live: 2,999 to back-fill
    handlersBehind = true;
    recovery.onNewMessage(service.message("r1", sent.get(sent.size() - 1)));
    assertTrue(service.pages <= 1, "recovery read " + service.pages + " pages for handlers that took nothing");
    assertTrue(delivered.size() <= RoomBackfill.PAGE, delivered.size() + " messages published for a stuck handler");
    handlersBehind = false;
    while (!waiting.isEmpty()) {
      List<Runnable> next = new ArrayList<>(waiting);
      waiting.clear();
      for (Runnable r : next) r.run();
    }
    assertEquals(3_000, delivered.size());
    for (int i = 0; i < delivered.size(); i++) assertEquals("new r1#" + (i + 2) + "@" + (i + 2), delivered.get(i));
  }

  @Test
  void aMessageBackFilledBeforeTheFirstLiveMessageOfAListedRoomIsNotDeliveredAgainByItsLateLiveCopy() {
    service.send("r1", 2);
    firstConnect(); // r1 starts at seq 2 from the first listing, waiting for its first live message
    long third = service.send("r1", 1).get(0); // its live copy is late (a token refresh's second connection)
    recovery.onConnected(); // the new connection's sync back-fills it
    assertEquals(Arrays.asList("new r1#3@3"), delivered);
    recovery.onNewMessage(service.message("r1", third)); // the late live copy
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4"), delivered, "each seq once");
  }

  /**
   * The first listing is answered after message 3 was sent: it counts it, but 3 came after the connection was
   * accepted, so it is not history. Its live copy comes late (the old connection of a token refresh reads its
   * frames after the new one's sync) or never (the connection is cut first).
   */
  private long aListingThatCountsAMessageSentAfterTheConnection() {
    service.send("r1", 1); // an hour before: history
    service.now = wallClock - 120_000; // two minutes before the connection: history too
    service.send("r1", 1);
    service.holdListing = true;
    recovery.onConnected();
    service.now = wallClock + 50;
    long third = service.send("r1", 1).get(0); // after the connection's acceptance
    wallClock += 100;
    service.answerListing();
    assertEquals(Arrays.asList(), delivered);
    return third;
  }

  @Test
  void aMessageSentBeforeTheFirstListingWasAnsweredWhoseLiveCopyComesAfterABackfillIsDeliveredOnceInOrder() {
    long third = aListingThatCountsAMessageSentAfterTheConnection();
    service.send("r1", 1); // 4
    recovery.onConnected(); // a token refresh's new connection: its sync back-fills the room
    recovery.onNewMessage(service.message("r1", third)); // the late live copy, on the old connection
    recovery.onNewMessage(service.message("r1", 4)); // a repeat too
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4", "new r1#5@5"), delivered,
        "every message sent after the connection once, in order; nothing sent before it");
  }

  @Test
  void aMessageSentBeforeTheFirstListingWasAnsweredWhoseLiveCopyNeverComesIsDeliveredAfterTheLoss() {
    aListingThatCountsAMessageSentAfterTheConnection();
    recovery.onConnectionLost(); // its live copy is lost with the connection; nothing newer is sent
    recovery.onConnected();
    assertEquals(Arrays.asList("new r1#3@3"), delivered);
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4"), delivered);
  }

  @Test
  void aMessageSentBeforeTheFirstListingWasAnsweredWhoseLiveCopyComesDuringTheBackfillIsDeliveredOnceInOrder() {
    long third = aListingThatCountsAMessageSentAfterTheConnection();
    service.send("r1", 2); // 4, 5
    service.holdMessages = true;
    recovery.onConnected();
    recovery.onNewMessage(service.message("r1", third)); // live copies while the room is read
    recovery.onNewMessage(service.message("r1", 5));
    recovery.onNewMessage(service.message("r1", 4));
    assertEquals(Arrays.asList(), delivered, "held while the room is read");
    service.answerMessages();
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4", "new r1#5@5"), delivered);
  }

  @Test
  void aMessageSentBeforeTheFirstListingWasAnsweredWhoseLiveCopyComesFirstStartsTheRoomWithoutARead() {
    long third = aListingThatCountsAMessageSentAfterTheConnection();
    recovery.onNewMessage(service.message("r1", third));
    service.send("r1", 1);
    int pages = service.pages;
    recovery.onConnected();
    recovery.onNewMessage(service.message("r1", 4)); // a late live copy of what the sync delivered
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4"), delivered);
    assertEquals(pages + 1, service.pages, "the sync read only what followed the start the live message gave");
  }

  @Test
  void aRoomIdleWhenTheConnectionWasAcceptedStartsAtItsListedSeqAndIsNotReadAgain() {
    service.send("r1", 3); // an hour before the connection
    firstConnect();
    recovery.onConnected(); // a token refresh: the room is not behind
    recovery.onConnectionLost();
    recovery.onConnected();
    assertEquals(0, service.pages, "an idle room's start is sure: nothing is read");
    assertEquals(Arrays.asList(), delivered);
  }

  @Test
  void aRestartFromTheStoreDeliversWhatWasMissedOnceInOrderAndNothingTwice() {
    StoreJournalDouble store = new StoreJournalDouble();
    recovery.journal(store);
    service.send("r1", 2);
    service.send("r2", 1);
    firstConnect();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0))); // #3, live
    recovery.onMessageUpdated(service.message("r1", 1, service.edit("r1", 1))); // rev 4, live
    service.read("r1", "bob", 3, wallClock);
    recovery.onReceipt(Receipt.of("r1", "bob", "r1-m3", 3, wallClock));
    assertEquals(Arrays.asList("new r1#3@3", "upd r1#1@4", "read r1 bob@3"), delivered);

    // the app is stopped; meanwhile two messages, an edit and a receipt of another user
    service.send("r1", 2); // seq 4, 5 (revs 5, 6)
    service.edit("r1", 3); // rev 7
    service.read("r1", "carol", 6, wallClock + 5);
    delivered.clear();
    setUp();
    recovery.restore(store.state(wallClock));
    recovery.onConnected();
    assertEquals(Arrays.asList("new r1#4@5", "new r1#5@6", "upd r1#3@7", "read r1 carol@6"), only("r1"),
        "what arrived while the app was stopped, once and in order; nothing it had before");
    assertEquals(Arrays.asList(), only("r2"));
  }

  @Test
  void aChangeAppliedAboveTheWatermarkBeforeARestartIsNotDeliveredAgain() {
    StoreJournalDouble store = new StoreJournalDouble();
    recovery.journal(store);
    service.send("r1", 2);
    firstConnect();
    long skipped = service.edit("r1", 1); // rev 3, never arrives live
    long applied = service.edit("r1", 2); // rev 4, arrives live: above the watermark (3 is missing)
    recovery.onMessageUpdated(service.message("r1", 2, applied));
    assertEquals(Arrays.asList("upd r1#2@4"), delivered);
    delivered.clear();
    setUp();
    recovery.restore(store.state(wallClock)); // before the grace timer read the changes
    recovery.onConnected();
    assertEquals(Arrays.asList("upd r1#1@" + skipped), only("r1"), "rev 3 once, rev 4 not again");
  }

  /**
   * The first connection is accepted at t0 and dropped before its listing is answered; message 7 is sent in the
   * gap (its live copy is lost with the connection). The second connection's listing counts it.
   */
  private void aFirstListingAnsweredAfterALostConnectionCountsAMessageSentInTheGap() {
    service.send("r1", 6); // an hour before: history
    service.holdListing = true;
    recovery.onConnected(); // t0; the listing is never answered
    recovery.onConnectionLost();
    service.now = wallClock + 1_000;
    service.send("r1", 1); // 7, while no connection was up
    wallClock += 2_000;
    service.holdListing = true;
    recovery.onConnected();
    service.answerListing(); // r1: lastMessageSeq 7, lastMessageAt t0 + 1 s
  }

  @Test
  void aMessageSentAfterTheFirstAcceptanceWhoseLiveCopyWasLostWithTheConnectionIsDeliveredBeforeTheNextLiveOne() {
    aFirstListingAnsweredAfterALostConnectionCountsAMessageSentInTheGap();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0))); // 8, live
    assertEquals(Arrays.asList("new r1#7@7", "new r1#8@8"), delivered, "7 and 8 once, in order");
  }

  @Test
  void aMessageSentAfterTheFirstAcceptanceWhoseLiveCopyWasLostIsDeliveredWithoutWaitingForAnotherMessage() {
    aFirstListingAnsweredAfterALostConnectionCountsAMessageSentInTheGap();
    assertEquals(Arrays.asList("new r1#7@7"), delivered);
  }

  @Test
  void aMessageShedBeforeTheFirstListingWasAnsweredIsDeliveredBeforeTheNextLiveOne() {
    service.send("r1", 4); // an hour before: history
    service.holdListing = true;
    recovery.onConnected(); // the listing is not answered yet
    service.now = wallClock + 1_000;
    service.send("r1", 2); // 5, whose live copy the inbound gate sheds, and 6
    wallClock += 2_000;
    service.holdListing = true;
    recovery.onEventsShed();
    service.answerListing(); // r1: lastMessageSeq 6
    recovery.onNewMessage(service.message("r1", 6));
    assertEquals(Arrays.asList("new r1#5@5", "new r1#6@6"), delivered, "5 and 6 once, in order");
  }

  @Test
  void aRoomFirstSeenLiveAfterAShedBeforeTheFirstListingWasAnsweredDeliversTheShedMessageFirst() {
    service.now = wallClock - 120_000; // two minutes before the connection: history, not read
    service.send("r1", 4);
    service.holdListing = true;
    recovery.onConnected(); // the listing is not answered yet
    service.now = wallClock + 1_000;
    service.send("r1", 2); // 5, whose live copy the inbound gate sheds, and 6
    wallClock += 2_000;
    service.holdListing = true;
    recovery.onEventsShed();
    recovery.onNewMessage(service.message("r1", 6)); // before the listing answers: r1 has no ledger yet
    service.answerListing(); // r1: lastMessageSeq 6
    assertEquals(Arrays.asList("new r1#5@5", "new r1#6@6"), delivered, "5 and 6 once, in order");
  }

  @Test
  void aRoomFirstSeenLiveAfterADropBeforeTheFirstListingWasAnsweredDeliversTheLostMessageFirst() {
    service.send("r1", 6); // an hour before: history
    service.holdListing = true;
    recovery.onConnected(); // t0; the listing is never answered
    recovery.onConnectionLost();
    service.now = wallClock + 1_000;
    service.send("r1", 2); // 7, lost with the connection, and 8
    wallClock += 2_000;
    service.holdListing = true;
    recovery.onConnected();
    recovery.onNewMessage(service.message("r1", 8)); // before the listing answers
    service.answerListing(); // r1: lastMessageSeq 8
    recovery.onNewMessage(service.message("r1", 8)); // a repeat
    assertEquals(Arrays.asList("new r1#7@7", "new r1#8@8"), delivered, "7 and 8 once, in order");
  }

  @Test
  void aRoomFirstSeenLiveAfterAShedThatTheFirstListingLeavesOutDeliversWhatWasSentSinceTheAcceptanceOnly() {
    service.now = wallClock - 120_000; // two minutes before the connection: history
    service.send("r1", 4);
    service.holdListing = true;
    recovery.onConnected();
    service.now = wallClock + 1_000;
    service.send("r1", 2); // 5 (shed) and 6
    wallClock += 2_000;
    service.holdListing = true;
    recovery.onEventsShed();
    recovery.onNewMessage(service.message("r1", 6)); // before the listing answers
    service.unlisted.add("r1"); // the listing leaves r1 out (the user left it again?)
    service.answerListing();
    assertEquals(Arrays.asList("new r1#5@5", "new r1#6@6"), delivered, "from the acceptance, not its history");
  }

  @Test
  void aLiveEditInARoomFirstSeenAfterAShedBeforeTheFirstListingWasAnsweredIsNotPublishedAheadOfItsMessage() {
    service.send("r1", 4); // an hour before: history
    service.holdListing = true;
    recovery.onConnected();
    service.now = wallClock + 1_000;
    service.send("r1", 2); // 5 and 6, both shed
    wallClock += 2_000;
    service.holdListing = true;
    recovery.onEventsShed();
    long rev = service.edit("r1", 6);
    recovery.onMessageUpdated(service.message("r1", 6, rev)); // before the listing answers
    service.answerListing();
    recovery.onNewMessage(service.message("r1", 6, 6)); // a late copy in its first state: a repeat
    assertEquals(Arrays.asList("new r1#5@5", "new r1#6@" + rev), delivered, "6 once, as new, in its latest state");
  }

  @Test
  void aListedMessageWhoseLiveCopyWasLostIsDeliveredWhenTheNextConnectionsLiveMessageBeatsItsListing() {
    long third = aListingThatCountsAMessageSentAfterTheConnection();
    recovery.onConnectionLost(); // the live copy of 3 is lost with the connection
    service.holdListing = true;
    recovery.onConnected();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0))); // 4, live, before the listing
    service.answerListing();
    recovery.onNewMessage(service.message("r1", third)); // a late copy: a repeat
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4"), delivered, "3 and 4 once, in order");
  }

  @Test
  void aListedMessageWhoseLiveCopyHadNotComeWhenTheClientStoppedIsDeliveredAfterTheRestart() {
    StoreJournalDouble store = new StoreJournalDouble();
    recovery.journal(store);
    aListingThatCountsAMessageSentAfterTheConnection(); // 3 is listed; its live copy has not come
    recovery.onNewMessage(service.message("r2", service.send("r2", 1).get(0))); // other rooms go on
    recovery.onMessageUpdated(service.message("r1", 1, service.edit("r1", 1))); // an edit of r1's history, live
    assertEquals(Arrays.asList("upd r1#1@4"), only("r1"));
    delivered.clear();
    wallClock += 3_600_000; // the client stops an hour later
    setUp();
    recovery.restore(store.state(wallClock));
    recovery.onConnected();
    assertEquals(Arrays.asList("new r1#3@3"), only("r1"), "3 once, nothing sent before the first connection");
  }

  @Test
  void aLiveEditOfAMessageSentSinceTheAcceptanceIsDeliveredAsNewInItsLatestStateNotAsAChange() {
    long third = aListingThatCountsAMessageSentAfterTheConnection();
    long rev = service.edit("r1", third); // its new-message has not come yet
    recovery.onMessageUpdated(service.message("r1", third, rev));
    recovery.onNewMessage(service.message("r1", third)); // a late copy: a repeat
    assertEquals(Arrays.asList("new r1#3@" + rev), delivered, "once, as new, in its latest state");
  }

  @Test
  void withAStoreARoomWhoseStartIsUnsureIsReadAtOnceAndItsStartJournaledThen() {
    StoreJournalDouble store = new StoreJournalDouble();
    store.durable = true;
    recovery.journal(store);
    service.now = wallClock - 120_000; // two minutes before the connection: history
    service.send("r1", 2);
    service.holdListing = true;
    recovery.onConnected();
    service.now = wallClock + 50;
    service.send("r1", 1); // 3, after the connection's acceptance; its live copy has not come
    wallClock += 100;
    service.answerListing();
    assertEquals(Arrays.asList("new r1#3@3"), delivered, "read at once from the acceptance");
    assertEquals(3, store.marks.get("r1")[0], "the start journaled once sure");
    assertEquals(0, store.unsureSince, "no start is unsure any more: writes are stamped with the time again");
    recovery.onNewMessage(service.message("r1", 3)); // the late live copy: a repeat
    assertEquals(Arrays.asList("new r1#3@3"), delivered);
  }

  /** What a store keeps of the journal: the latest watermarks, messages and receipts. */
  private static final class StoreJournalDouble implements RecoveryJournal {
    final Map<String, long[]> marks = new LinkedHashMap<>();
    final Map<String, Message> messages = new LinkedHashMap<>();
    final Map<String, Receipt> receipts = new LinkedHashMap<>();

    @Override
    public void delivered(Message m, long seq, long rev) {
      Message known = messages.get(m.id());
      if (known == null || known.rev() < m.rev()) messages.put(m.id(), m);
      watermarks(m.roomId(), seq, rev);
    }

    @Override
    public void receipt(Receipt r) {
      receipts.put(r.roomId() + " " + r.userId(), r);
    }

    @Override
    public void watermarks(String roomId, long seq, long rev) {
      marks.put(roomId, new long[] {seq, rev});
    }

    /** The store's rule: a write is stamped no later than the acceptance since which starts are unsure. */
    long unsureSince;
    boolean durable;

    @Override
    public boolean durable() {
      return durable;
    }

    @Override
    public void startsUnsureSince(long acceptedAt) {
      unsureSince = acceptedAt;
    }

    @Override
    public void listed(Room room) {
      if (!marks.containsKey(room.id())) marks.put(room.id(), new long[] {-1, -1}); // stored, not started
    }

    dev.svc.chat.store.StoredState state(long writtenAt) {
      List<dev.svc.chat.store.StoredRoom> rooms = new ArrayList<>();
      for (Map.Entry<String, long[]> e : marks.entrySet()) {
        rooms.add(new dev.svc.chat.store.StoredRoom(Room.builder().id(e.getKey()).createdAt(1).build(),
            e.getValue()[0], e.getValue()[1]));
      }
      List<Message> above = new ArrayList<>();
      for (Message m : messages.values()) {
        if (m.rev() > marks.get(m.roomId())[1]) above.add(m);
      }
      return new dev.svc.chat.store.StoredState(rooms, new ArrayList<>(receipts.values()), above,
          new ArrayList<>(), unsureSince > 0 ? Math.min(writtenAt, unsureSince) : writtenAt);
    }
  }

  /** The service's rooms in memory, with each read answered at once unless held or failing. */
  private final class FakeService implements RecoverySource {
    final Map<String, TreeMap<Long, Message>> rooms = new LinkedHashMap<>();
    final Map<String, Long> revs = new LinkedHashMap<>();
    final Map<String, List<Receipt>> receipts = new LinkedHashMap<>();
    int listings;
    int pages;
    /** When the service stores what is sent: an hour before the tests' connections unless a test moves it. */
    long now = 1_000_000 - 3_600_000;
    double failureRate;
    boolean forbidden;
    boolean holdListing;
    /** Rooms the listing leaves out. */
    final java.util.Set<String> unlisted = new java.util.HashSet<>();
    boolean holdMessages;
    private final Random random = new Random(7);
    private CompletableFuture<List<Room>> heldListing;
    private final List<Runnable> heldMessages = new ArrayList<>();

    List<Long> send(String roomId, int count) {
      TreeMap<Long, Message> room = rooms.computeIfAbsent(roomId, r -> new TreeMap<>());
      List<Long> seqs = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        long seq = room.isEmpty() ? 1 : room.lastKey() + 1;
        long rev = nextRev(roomId);
        room.put(seq, Message.builder().id(roomId + "-m" + seq).roomId(roomId).seq(seq).rev(rev).senderId("bob")
            .clientMessageId("c" + seq).addPart(MessagePart.text("m" + seq)).createdAt(now).build());
        seqs.add(seq);
      }
      return seqs;
    }

    long edit(String roomId, long seq) {
      Message m = rooms.get(roomId).get(seq);
      long rev = nextRev(roomId);
      rooms.get(roomId).put(seq, m.newBuilder().rev(rev).editedAt(now).build());
      return rev;
    }

    void read(String roomId, String userId, long seq, long at) {
      receipts.computeIfAbsent(roomId, r -> new ArrayList<>()).add(Receipt.of(roomId, userId, roomId + "-m" + seq,
          seq, at));
    }

    private long nextRev(String roomId) {
      long rev = revs.getOrDefault(roomId, 0L) + 1;
      revs.put(roomId, rev);
      return rev;
    }

    Message message(String roomId, long seq) {
      return rooms.get(roomId).get(seq);
    }

    /** The message at {@code seq} as it was at revision {@code rev} (its state then). */
    Message message(String roomId, long seq, long rev) {
      return rooms.get(roomId).get(seq).newBuilder().rev(rev).build();
    }

    void answerListing() {
      CompletableFuture<List<Room>> f = heldListing;
      heldListing = null;
      f.complete(listNow());
    }

    void answerMessages() {
      List<Runnable> all = new ArrayList<>(heldMessages);
      heldMessages.clear();
      holdMessages = false;
      for (Runnable r : all) r.run();
    }

    private <T> CompletableFuture<T> answer(java.util.function.Supplier<T> value) {
      return answer(value, false);
    }

    private <T> CompletableFuture<T> answer(java.util.function.Supplier<T> value, boolean listing) {
      CompletableFuture<T> f = new CompletableFuture<>();
      if (forbidden && !listing) {
        f.completeExceptionally(new ApiException(403, "forbidden", "not a member"));
      } else if (failureRate > 0 && random.nextDouble() < failureRate) {
        f.completeExceptionally(new TransportException("cut"));
      } else {
        f.complete(value.get());
      }
      return f;
    }

    private List<Room> listNow() {
      List<Room> list = new ArrayList<>();
      for (Map.Entry<String, TreeMap<Long, Message>> e : rooms.entrySet()) {
        if (unlisted.contains(e.getKey())) continue;
        list.add(Room.builder().id(e.getKey()).memberIds(Arrays.asList("me", "bob")).createdAt(1)
            .lastMessageSeq(e.getValue().isEmpty() ? 0 : e.getValue().lastKey()).rev(revs.getOrDefault(e.getKey(), 0L))
            .lastMessageAt(e.getValue().isEmpty() ? null : e.getValue().lastEntry().getValue().createdAt()).build());
      }
      return list;
    }

    @Override
    public CompletableFuture<List<Room>> listRooms() {
      listings++;
      if (holdListing) {
        holdListing = false;
        heldListing = new CompletableFuture<>();
        return heldListing;
      }
      return answer(this::listNow, true);
    }

    @Override
    public CompletableFuture<MessagePage> messages(String roomId, MessageQuery q) {
      pages++;
      if (holdMessages) {
        CompletableFuture<MessagePage> f = new CompletableFuture<>();
        heldMessages.add(() -> f.complete(page(roomId, q)));
        return f;
      }
      return answer(() -> page(roomId, q));
    }

    private MessagePage page(String roomId, MessageQuery q) {
      List<Message> all = new ArrayList<>(rooms.getOrDefault(roomId, new TreeMap<>()).values());
      List<Message> out = new ArrayList<>();
      boolean more;
      if (q.after() != null) {
        for (Message m : all) {
          if (m.seq() > q.after() && out.size() < q.limit()) out.add(m);
        }
        more = !out.isEmpty() && out.get(out.size() - 1).seq() < all.get(all.size() - 1).seq();
      } else {
        long before = q.before() == null ? Long.MAX_VALUE : q.before();
        List<Message> below = new ArrayList<>();
        for (Message m : all) {
          if (m.seq() < before) below.add(m);
        }
        out = below.subList(Math.max(0, below.size() - q.limit()), below.size());
        more = below.size() > q.limit();
      }
      return new MessagePage(out, more);
    }

    @Override
    public CompletableFuture<ChangesPage> changes(String roomId, long since) {
      return answer(() -> {
        List<Message> changed = new ArrayList<>();
        for (Message m : rooms.getOrDefault(roomId, new TreeMap<>()).values()) {
          if (m.rev() > since) changed.add(m);
        }
        changed.sort((a, b) -> Long.compare(a.rev(), b.rev()));
        boolean more = changed.size() > 100;
        return new ChangesPage(more ? changed.subList(0, 100) : changed, revs.getOrDefault(roomId, 0L), more);
      });
    }

    @Override
    public CompletableFuture<List<Receipt>> receipts(String roomId) {
      return answer(() -> new ArrayList<>(receipts.getOrDefault(roomId, new ArrayList<>())));
    }
  }
}
