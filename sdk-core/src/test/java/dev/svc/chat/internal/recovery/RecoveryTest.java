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
import dev.svc.chat.internal.realtime.RoomPosition;
import dev.svc.chat.internal.realtime.StartPositions;
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
    recovery = new Recovery(actor, service, sink, new ReconnectPolicy(100, 1_000, new Random(1)), true,
        new Log(ChatLogger.NONE));
  }

  private List<String> only(String roomId) {
    List<String> out = new ArrayList<>();
    for (String d : delivered) {
      if (d.contains(" " + roomId + "#") || d.startsWith("read " + roomId + " ")) out.add(d);
    }
    return out;
  }

  /** Connects with the positions as they are now: the starting point, nothing delivered. */
  private void firstConnect() {
    connect();
    delivered.clear();
  }

  /** A connection is accepted; its CONNECT answer gives the rooms' positions as they are now. */
  private void connect() {
    recovery.onConnected(service.positions());
  }

  /** A reconnect: the connection is lost, changes happen ({@code away}), and a new connection is accepted. */
  private void reconnect(Runnable away) {
    recovery.onConnectionLost();
    away.run();
    connect();
  }

  @Test
  void theFirstConnectionStartsAtItsPositionsAndLiveMessagesFollowThem() {
    service.send("r1", 3);
    firstConnect();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#4@4"), delivered);
    assertEquals(0, service.pages, "nothing read: the position is where delivery starts");
  }

  @Test
  void aMessageAndAnEditMadeAfterThePositionsWereReadAreDeliveredLiveOnceWhenTheListingIsLate() {
    service.send("r1", 2);
    service.holdListing = true; // the listing (for the journal) is answered late: it no longer matters
    connect();
    service.send("r1", 1); // 3@3, after the positions were read
    service.edit("r1", 1); // 1@4, an edit of an older message
    service.answerListing();
    recovery.onNewMessage(service.message("r1", 3, 3));
    recovery.onMessageUpdated(service.message("r1", 1));
    recovery.onMessageUpdated(service.message("r1", 1)); // a repeat
    time.advance(60_000);
    assertEquals(Arrays.asList("new r1#3@3", "upd r1#1@4"), only("r1"));
  }

  @Test
  void anEditOfARoomIdleAtTheConnectWhoseLiveCopyWasLostIsReadAtTheReconnect() {
    service.send("r1", 2);
    firstConnect();
    service.edit("r1", 1); // its live copy is lost with the connection
    reconnect(() -> { });
    assertEquals(Arrays.asList("upd r1#1@3"), only("r1"));
  }

  @Test
  void aMessageSentAfterTheFirstAcceptanceWhoseLiveCopyWasLostIsDeliveredAtTheReconnect() {
    service.send("r1", 2);
    firstConnect();
    service.send("r1", 1); // 3: its live copy is lost with the connection
    reconnect(() -> { });
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4"), only("r1"));
  }

  @Test
  void aBackfillBeforeTheFirstLossIsNotDeliveredAgainAfterIt() {
    service.send("r1", 3);
    firstConnect();
    List<Long> sent = service.send("r1", 3); // 4..6; only 6 arrives live: 4 and 5 are back-filled
    recovery.onNewMessage(service.message("r1", sent.get(2)));
    assertEquals(Arrays.asList("new r1#4@4", "new r1#5@5", "new r1#6@6"), delivered);
    reconnect(() -> { });
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#4@4", "new r1#5@5", "new r1#6@6", "new r1#7@7"), delivered);
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
    assertEquals(4, done.messages());
  }

  @Test
  void afterALossEveryRoomIsCaughtUpWithMessagesChangesAndReceipts() {
    service.send("r1", 2);
    service.send("r2", 1);
    firstConnect();
    reconnect(() -> {
      service.send("r1", 2); // 3, 4
      service.edit("r1", 1); // rev 5
      service.edit("r2", 1); // rev 2
      service.read("r1", "bob", 4, service.now + 10);
    });
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4", "upd r1#1@5", "read r1 bob@4"), only("r1"));
    assertEquals(Arrays.asList("upd r2#1@2"), only("r2"));
    RecoveryEvent whole = recoveries.get(recoveries.size() - 1);
    assertEquals(null, whole.roomId(), recoveries.toString());
    assertEquals(RecoveryEvent.Phase.FINISHED, whole.phase());
    assertEquals(2, whole.messages());
    assertEquals(2, whole.updates());
    assertEquals(1, whole.receipts());
  }

  @Test
  void aFailedBackfillIsRetriedUntilItSucceedsAndNothingIsSkipped() {
    service.send("r1", 1);
    firstConnect();
    service.failureRate = 0.7; // seven requests in ten fail
    reconnect(() -> service.send("r1", 300));
    for (int i = 0; i < 2_000 && delivered.size() < 300; i++) time.advance(1_000);
    assertEquals(300, delivered.size(), "every missed message, whatever failed");
    for (int i = 0; i < 300; i++) assertEquals("new r1#" + (i + 2) + "@" + (i + 2), delivered.get(i));
    assertTrue(errors.stream().anyMatch(e -> e.kind() == ClientError.Kind.RECOVERY_RETRY));
  }

  @Test
  void aBackfillStepThatThrowsIsRetriedAndGivesItsSlotBack() {
    for (int i = 1; i <= 6; i++) service.send("r" + i, 1);
    firstConnect();
    service.throwingReads = 5; // more than the back-fills running at once
    reconnect(() -> {
      for (int i = 1; i <= 6; i++) service.send("r" + i, 1);
    });
    time.advance(60_000);
    for (int i = 1; i <= 6; i++) {
      assertEquals(Arrays.asList("new r" + i + "#2@2"), only("r" + i), "room r" + i + " was caught up");
    }
    assertEquals(RecoveryEvent.Phase.FINISHED, recoveries.get(recoveries.size() - 1).phase());
  }

  @Test
  void liveMessagesDuringABackfillAreHeldAndMergedInOrderWithoutRepeats() {
    service.send("r1", 1);
    firstConnect();
    service.holdMessages = true;
    reconnect(() -> service.send("r1", 3)); // 2, 3, 4
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
  void aRoomJoinedWhileAwayDeliversWhatWasSentSinceTheLastThingSeenNotItsHistory() {
    firstConnect(); // the service's time at the answer: now
    recovery.onConnectionLost();
    service.now -= 3_600_000;
    service.send("new-room", 250); // an hour before: history
    service.now += 3_600_000 + 1_000;
    service.send("new-room", 3); // while away
    connect();
    assertEquals(Arrays.asList("new new-room#251@251", "new new-room#252@252", "new new-room#253@253"), delivered);
  }

  @Test
  void aRoomJoinedSinceTheConnectionStartsAtItsFirstLiveMessage() {
    firstConnect();
    service.send("joined", 4);
    recovery.onNewMessage(service.message("joined", 4));
    recovery.onNewMessage(service.message("joined", service.send("joined", 1).get(0)));
    assertEquals(Arrays.asList("new joined#4@4", "new joined#5@5"), delivered);
  }

  @Test
  void aRoomNotReadableIsReportedAndReadOnFromItsLedgerWhenAccessComesBack() {
    service.send("r1", 1);
    firstConnect();
    service.forbidden = true;
    reconnect(() -> service.send("r1", 1)); // 2: not readable now
    assertTrue(errors.stream().anyMatch(e -> e.kind() == ClientError.Kind.ROOM_ACCESS_LOST && "r1".equals(e.roomId())));
    service.forbidden = false;
    service.edit("r1", 1); // rev 3, while access was lost
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0))); // 3@4: access is back
    assertEquals(Arrays.asList("new r1#2@2", "new r1#3@4", "upd r1#1@3"), only("r1"),
        "what was missed while access was lost is read, not skipped");
  }

  @Test
  void aPositionBelowTheLedgerIsReportedAndLaterMessagesAreNotDroppedAsRepeats() {
    service.send("r1", 5);
    firstConnect();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0))); // 6, delivered live
    recovery.onConnectionLost();
    service.rewind("r1", 3); // the service is restored from a backup: messages 4 and 5 are gone
    connect();
    List<Long> later = service.send("r1", 2); // 4 and 5 again, other messages
    recovery.onNewMessage(service.message("r1", later.get(0)));
    recovery.onNewMessage(service.message("r1", later.get(1)));
    assertEquals(Arrays.asList("new r1#6@6", "new r1#4@4", "new r1#5@5"), only("r1"));
    assertTrue(errors.stream().anyMatch(e -> e.kind() == ClientError.Kind.ROOM_REWOUND && "r1".equals(e.roomId())),
        "reported: " + errors);
  }

  @Test
  void aLedgerAboveThePositionByAReadAnsweredDuringTheReconnectIsNoRewind() {
    service.send("r1", 2);
    firstConnect();
    recovery.onNewMessage(service.message("r1", service.send("r1", 2).get(1))); // 4 skips 3: read
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4"), only("r1"));
    recovery.onConnectionLost();
    StartPositions before = service.positions(); // the next connection's positions are read here
    service.holdMessages = true;
    recovery.onNewMessage(service.message("r1", service.send("r1", 2).get(1))); // 6 skips 5: a read starts
    service.answerMessages(); // and is answered before the new connection's answer is handled
    recovery.onConnected(before);
    assertEquals(Arrays.asList("new r1#3@3", "new r1#4@4", "new r1#5@5", "new r1#6@6"), only("r1"));
    assertTrue(errors.stream().noneMatch(e -> e.kind() == ClientError.Kind.ROOM_REWOUND), "no rewind: " + errors);
  }

  @Test
  void aHandoverPositionBelowWhatTheOldConnectionDeliveredIsNoRewind() {
    service.send("r1", 2);
    firstConnect();
    StartPositions newConnection = service.positions();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0))); // the old connection delivers 3
    recovery.onConnected(handover(newConnection));
    recovery.onNewMessage(service.message("r1", 3)); // its copy on the new connection: a repeat
    assertEquals(Arrays.asList("new r1#3@3"), only("r1"));
    assertTrue(errors.stream().noneMatch(e -> e.kind() == ClientError.Kind.ROOM_REWOUND), "no rewind: " + errors);
  }

  private static StartPositions handover(StartPositions p) {
    try {
      java.lang.reflect.Method m = StartPositions.class.getDeclaredMethod("duringHandover");
      m.setAccessible(true);
      return (StartPositions) m.invoke(p);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aServiceWithoutPositionsIsListedAndTheListingPlacesTheRooms() {
    service.send("r1", 2);
    recovery.onConnected(StartPositions.NONE);
    delivered.clear();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    assertEquals(Arrays.asList("new r1#3@3"), delivered);
    assertEquals(1, service.listings);
  }

  @Test
  void shedEventsAreReadFromTheHistoryAndARoomFirstSeenMeanwhileIsPlacedByTheListing() {
    service.send("r1", 1);
    firstConnect();
    service.now += 1_000;
    service.send("r1", 2); // 2, 3: shed
    service.send("joined", 2); // a room joined since: its first two messages shed
    service.holdListing = true;
    recovery.onEventsShed();
    recovery.onNewMessage(service.message("joined", service.send("joined", 1).get(0))); // 3 arrives live
    service.answerListing();
    assertEquals(Arrays.asList("new r1#2@2", "new r1#3@3"), only("r1"));
    assertEquals(Arrays.asList("new joined#1@1", "new joined#2@2", "new joined#3@3"), only("joined"));
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
  void aRestartFromTheStoreDeliversWhatWasMissedOnceInOrderAndNothingTwice() {
    StoreJournalDouble store = new StoreJournalDouble();
    recovery.journal(store);
    service.send("r1", 2);
    firstConnect();
    recovery.onNewMessage(service.message("r1", service.send("r1", 1).get(0)));
    service.read("r1", "bob", 3, service.now);
    recovery.onReceipt(Receipt.of("r1", "bob", "r1-m3", 3, service.now));
    recovery.close();
    // a new process, from the store: 4 and 5 were sent, 1 edited, carol read, a room joined, meanwhile
    service.now += 5_000;
    service.send("r1", 2);
    service.edit("r1", 1);
    service.read("r1", "carol", 5, service.now);
    service.send("joined", 1);
    delivered.clear();
    setUp();
    recovery.journal(store);
    recovery.restore(store.state());
    connect();
    assertEquals(Arrays.asList("new r1#4@4", "new r1#5@5", "upd r1#1@6", "read r1 carol@5"), only("r1"));
    assertEquals(Arrays.asList("new joined#1@1"), only("joined"));
  }

  @Test
  void aChangeAppliedAboveTheWatermarkBeforeARestartIsNotDeliveredAgain() {
    StoreJournalDouble store = new StoreJournalDouble();
    recovery.journal(store);
    service.send("r1", 2);
    firstConnect();
    service.edit("r1", 1); // rev 3: its live copy is lost
    recovery.onMessageUpdated(service.message("r1", 2, service.edit("r1", 2))); // rev 4, applied above the gap
    recovery.close();
    delivered.clear();
    setUp();
    recovery.journal(store);
    recovery.restore(store.state()); // before the grace timer read the changes
    connect();
    assertEquals(Arrays.asList("upd r1#1@3"), only("r1"), "rev 4 not again");
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

    /** The service's time a write is stamped with. */
    long serviceTime;

    @Override
    public void serviceTime(long at) {
      serviceTime = at;
    }

    @Override
    public void listed(Room room) {
      if (!marks.containsKey(room.id())) marks.put(room.id(), new long[] {-1, -1}); // stored, not started
    }

    dev.svc.chat.store.StoredState state() {
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
          new ArrayList<>(), serviceTime);
    }
  }

  /** The service's rooms in memory, with each read answered at once unless held or failing. */
  private final class FakeService implements RecoverySource {
    final Map<String, TreeMap<Long, Message>> rooms = new LinkedHashMap<>();
    final Map<String, Long> revs = new LinkedHashMap<>();
    final Map<String, List<Receipt>> receipts = new LinkedHashMap<>();
    int listings;
    int pages;
    /** The service's clock: what is sent is created at this time. */
    long now = 1_000_000;
    double failureRate;
    boolean forbidden;
    boolean holdListing;
    /** How many reads of messages throw at once (a defect of the reading code, not a failed request). */
    int throwingReads;
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

    /** The CONNECT answer's positions as they are now, at the service's time. */
    StartPositions positions() {
      List<RoomPosition> list = new ArrayList<>();
      for (Room r : listNow()) list.add(new RoomPosition(r.id(), r.lastMessageSeq(), r.rev()));
      return StartPositions.of(list, now);
    }

    /** The service goes back to an older state of {@code roomId}: what is above {@code seq} is gone. */
    void rewind(String roomId, long seq) {
      TreeMap<Long, Message> room = rooms.get(roomId);
      room.tailMap(seq, false).clear();
      long rev = 0;
      for (Message m : room.values()) rev = Math.max(rev, m.rev());
      revs.put(roomId, rev);
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
      if (throwingReads-- > 0) throw new IllegalStateException("a read that throws");
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
