package dev.svc.chat.internal.recovery;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.Room;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.realtime.ReconnectPolicy;

/**
 * Exactly-once, in-order delivery of every room's messages, changes and receipts, whatever the connection
 * does. Live events pass through here; what they skip, and what happened while the client was away, is
 * fetched over REST and delivered in their place:
 *
 * <ul>
 *   <li>Each room has a {@link RoomLedger}: the highest {@code seq} delivered with no gap, and the revision
 *       watermark. A new message is delivered only when it is the next seq; a later one is held and the room
 *       back-filled; an earlier one is a repeat and dropped. A change is delivered only once per revision.
 *   <li>After every accepted connection the rooms are listed; a room whose {@code lastMessageSeq} or
 *       {@code rev} is ahead of its ledger is back-filled ({@link RoomBackfill}); after a loss the receipts
 *       are read too. A room first seen after a loss delivers what was sent since the loss (with a margin
 *       for clock skew), not its whole history.
 *   <li>The first listing is where each room's delivery starts: what the connection delivers live follows it.
 *       It is answered after the connection was accepted, so it may count messages sent in between, which
 *       the connection delivers live too: the room's first live message then moves the start to just before
 *       it. A room whose newest listed message was sent since the acceptance (less the clock-skew margin)
 *       and that must be read before its first live message came starts at the first message sent since
 *       then instead ({@link RoomLedger#startCutoff}), so what was sent after the acceptance is delivered
 *       once and in order whether its live copy comes before, during or after that read, or never. Once a
 *       live copy may have been lost (a drop, a shed), a first live message no longer moves the start, nor starts a
 *       room the first listing has not answered for yet: the listing places it as unsure, read from the acceptance.
 *   <li>A request that fails is retried with backoff until it succeeds; a gap is never skipped. Only a room
 *       the user can no longer read (403, 404) is given up, and that is reported.
 * </ul>
 *
 * Confined to the client's actor ({@link Scheduler}); answers of requests are posted back to it. It owns
 * no thread and reads time only from the scheduler, so it runs as well on a shared pool or virtual time.
 */
public final class Recovery {
  /** Room back-fills running at once; others wait their turn. */
  static final int MAX_CONCURRENT_BACKFILLS = 4;
  /** How far before a loss a room first seen afterwards is read, for clocks that disagree. */
  static final long CLOCK_SKEW_MARGIN_MILLIS = 60_000;
  /** How long a revision gap may stay open (events can arrive out of order) before the changes are read. */
  static final long REVISION_GAP_GRACE_MILLIS = 500;

  final Scheduler actor;
  final RecoverySource source;
  final DeliverySink sink;
  final ReconnectPolicy backoff;
  final Log log;
  private final LongSupplier wallClock;
  /** False: nothing is fetched; live events are delivered as they come, repeats dropped. */
  private final boolean fetches;
  /** Where deliveries and watermarks are recorded for the offline store. */
  private RecoveryJournal journal = RecoveryJournal.NONE;

  private final RoomLedgers rooms = new RoomLedgers();
  private final ArrayDeque<RoomBackfill> waiting = new ArrayDeque<>(1); // small: most clients never queue a backfill
  private int running;
  private boolean closed;

  /** The sync after the latest accepted connection. */
  private int syncEpoch;
  private boolean everListed;
  /** Wall-clock time of the first connection accepted before the first listing was answered; 0 when none. */
  private long firstAcceptedAt;
  /** Wall-clock time of the latest loss not yet recovered from; 0 when none. */
  private long lostAt;
  /**
   * A live copy may have been lost (a drop or a shed) since a connection was first accepted: the first live
   * message of a room whose start is unsure no longer says where its start is.
   */
  private boolean liveLost;
  /** The rooms whose unsure start is not journaled yet; null when none. */
  private UnsureStarts unsure;
  /** The cut-off of the reconnect's recovery under way (0: not after a loss); rooms first seen use it. */
  private long syncCutoff;
  private boolean listing;
  /** The reconnect's recovery under way, set while syncCutoff is; null when none (most clients, most of the time). */
  private SyncTally sync;
  private int listAttempt;
  private Scheduler.Timer listRetry;

  public Recovery(Scheduler actor, RecoverySource source, DeliverySink sink, ReconnectPolicy backoff,
      LongSupplier wallClock, boolean fetches, Log log) {
    this.fetches = fetches;
    this.actor = actor;
    this.source = source;
    this.sink = sink;
    this.backoff = backoff;
    this.wallClock = wallClock;
    this.log = log;
  }

  /** Records deliveries and watermarks in {@code journal} (the offline store); set before the first connect. */
  public void journal(RecoveryJournal journal) {
    this.journal = journal;
  }

  /**
   * Starts from what the offline store kept (actor, before the first connect): each stored room resumes from
   * its watermarks, the changes applied above its revision watermark and the receipts delivered are not
   * delivered again, and the next connection recovers as after a loss at the store's last write (rooms the
   * user joined meanwhile deliver what was sent since, every room's receipts are read).
   */
  public void restore(dev.svc.chat.store.StoredState state) {
    if (state.rooms().isEmpty()) return;
    // rooms stored without watermarks (listed, not started yet) are read as first seen after this loss
    Map<String, RoomLedger> stored = StoredLedgers.of(state);
    for (RoomLedger room : stored.values()) rooms.put(room);
    everListed = true;
    lostAt = state.writtenAt() > 0 ? state.writtenAt() : wallClock.getAsLong();
  }

  // ---------------------------------------------------------------- live events (actor)

  /** A live {@code new-message}. */
  public void onNewMessage(Message m) {
    RoomLedger room = ledger(m.roomId());
    if (room == null) {
      if (heldForListing(m)) return;
      // a room first seen live: this message is where its delivery starts
      room = new RoomLedger(m.roomId(), m.seq() - 1, m.rev() - 1);
      rooms.put(room);
    }
    if (room.startCutoff > 0 && liveLost) {
      readFromCutoff(room, m); // live copies may have been lost since the acceptance: it does not say the start
      return;
    }
    if (room.fresh) {
      // the first live message of a room started by the first listing: live messages come in seq order and
      // only for what was sent after the connection, so where it is at or below the listed seq, the listing
      // counted messages sent after the connection: delivery starts just before it instead
      room.firstLiveChange(m.rev());
      room.started();
      if (m.seq() <= room.seq) room.seq = m.seq() - 1;
    }
    if (room.seq < 0 || room.backfill != null) {
      room.hold(m);
      return;
    }
    if (m.seq() <= room.seq) {
      if (log.isDebug()) log.debug("dropped a repeat of message " + m.roomId() + "#" + m.seq());
      return;
    }
    if (m.seq() > room.seq + 1 && !fetches) {
      deliverNew(room, m, null); // nothing is fetched: the gap stays, delivery goes on
      return;
    }
    if (m.seq() > room.seq + 1) {
      room.hold(m);
      if (log.isDebug()) log.debug("room " + room.roomId + " skipped from seq " + room.seq + " to " + m.seq());
      backfill(room, 0, 0, -1, true);
      return;
    }
    deliverNew(room, m, null);
    drainHeld(room);
    watchRevisionGap(room);
  }

  /** A live {@code message-updated}. */
  public void onMessageUpdated(Message m) {
    RoomLedger room = ledger(m.roomId());
    if (room == null && heldForListing(m)) return; // its new-message may be lost too: delivered new, once
    if (room == null) {
      sink.publish(EventType.MESSAGE_UPDATED, m); // a room with nothing delivered yet: nothing to repeat
      return;
    }
    if (!fetches && m.seq() > room.seq) {
      if (!room.applied(m.id(), m.rev())) deliverUpdate(room, m, null);
      return;
    }
    if (room.startCutoff > 0 && m.createdAt() >= room.startCutoff) {
      readFromCutoff(room, m); // sent since the acceptance: delivered new (in this state) by the read, not changed
      return;
    }
    room.firstLiveChange(m.rev()); // a room started by the first listing: a change the listing counted is no repeat
    if (room.seq < 0 || m.seq() > room.seq) {
      // its new-message was not delivered yet: deliver it once, in this later state
      boolean underway = room.held.containsKey(m.seq()) || room.seq < 0 || room.backfill != null;
      room.hold(m);
      if (!underway) backfill(room, 0, 0, -1, true);
      return;
    }
    if (room.applied(m.id(), m.rev())) {
      if (log.isDebug()) log.debug("dropped a repeat of change " + m.roomId() + " rev " + m.rev());
      return;
    }
    deliverUpdate(room, m, null);
    watchRevisionGap(room);
  }

  /**
   * Holds {@code m}, of a room first seen live, in a ledger not started yet (seq -1) when the listing under way
   * is to say where the room starts: after a loss (a room the user joined while away), or before the first
   * listing once a live copy may have been lost since the acceptance (the first live message may follow a lost
   * one). Returns whether it was held.
   */
  private boolean heldForListing(Message m) {
    if (!(listing && (syncCutoff > 0 || liveLost && !everListed))) return false;
    RoomLedger room = new RoomLedger(m.roomId(), -1, -1);
    rooms.put(room);
    room.hold(m);
    return true;
  }

  /** A live {@code room-read}. */
  public void onReceipt(Receipt r) {
    RoomLedger room = ledger(r.roomId());
    if (room == null || room.newerReceipt(r)) {
      journal.receipt(r);
      sink.publish(EventType.ROOM_READ, r);
    }
  }

  // ---------------------------------------------------------------- connection (actor)

  /** The connection was lost (or the app disconnected): what follows is recovered on the next connection. */
  public void onConnectionLost() {
    onConnectionLost(null);
  }

  /**
   * The connection was lost for {@code reason} (null: not known): what follows is recovered on the next
   * connection. After a ping timeout the idle pooled connections to the service, which may have stalled with
   * the socket, are closed first ({@link RecoverySource#evictIdleConnections}), so that recovery's reads do not
   * wait out a read timeout on one.
   */
  public void onConnectionLost(ConnectionReason reason) {
    if (reason == ConnectionReason.PING_TIMEOUT) source.evictIdleConnections();
    if (lostAt == 0) lostAt = wallClock.getAsLong();
    if (syncEpoch > 0) liveLost = true;
  }

  /**
   * The inbound gate shed live events while the handlers were far behind: every room is caught up as after a
   * loss, its pages read as the handlers take them ({@link DeliverySink#whenHandled}).
   */
  public void onEventsShed() {
    if (closed || !fetches) return;
    log.info("handlers fell behind and live events were shed; catching every room up from the history");
    onConnectionLost(null);
    onConnected();
  }

  /** A connection was accepted (a first connect, a reconnect, or a token refresh): catch up every room. */
  public void onConnected() {
    if (closed || !fetches) return;
    syncEpoch++;
    boolean afterLoss = everListed && lostAt != 0;
    if (afterLoss && syncCutoff == 0) {
      syncCutoff = lostAt - CLOCK_SKEW_MARGIN_MILLIS;
      sync = new SyncTally();
      sink.publish(EventType.RECOVERY, new RecoveryEvent(RecoveryEvent.Phase.STARTED, null, 0, 0, 0, 0));
    }
    lostAt = 0;
    if (!everListed && firstAcceptedAt == 0) firstAcceptedAt = wallClock.getAsLong();
    listAttempt = 0;
    if (listRetry != null) listRetry.cancel();
    listRooms(syncEpoch);
  }

  private void listRooms(final int epoch) {
    listing = true;
    whenDone(source.listRooms(), () -> epoch == syncEpoch, this::onRoomsListed, error -> {
      sink.report(new ClientError(ClientError.Kind.RECOVERY_RETRY, "listing the rooms failed; retrying: "
          + error.getMessage(), null, error));
      listRetry = actor.schedule(() -> {
        if (epoch == syncEpoch && !closed) listRooms(epoch);
      }, backoff.delayMillis(listAttempt++));
    });
  }

  private void onRoomsListed(List<Room> list) {
    listing = false;
    boolean firstList = !everListed;
    everListed = true;
    // messages sent from here on may have been sent after the connection was accepted
    long acceptedAt = firstAcceptedAt;
    long acceptance = acceptedAt - CLOCK_SKEW_MARGIN_MILLIS;
    firstAcceptedAt = 0;
    for (Room r : list) {
      journal.listed(r);
      RoomLedger room = ledger(r.id());
      // at the first listing a ledger not started is a room first seen live after a loss: its start is unsure
      RoomLedger early = firstList && room != null && room.seq < 0 ? room : null;
      if (room == null || early != null) {
        if (firstList || syncCutoff == 0) {
          RoomLedger start = early != null ? early : new RoomLedger(r.id(), r.lastMessageSeq(), r.rev());
          start.seq = r.lastMessageSeq(); // where delivery starts
          start.rev = r.rev();
          start.fresh = firstList;
          start.revFresh = firstList;
          Long newest = r.lastMessageAt();
          if (firstList && (early != null || newest != null && newest >= acceptance)) start.startCutoff = acceptance;
          rooms.put(start);
          if (start.startCutoff == 0) {
            journal.watermarks(r.id(), start.seq, start.rev);
            continue;
          }
          // journaled once sure: a restart must not resume after messages the app did not receive
          if (unsure == null) unsure = new UnsureStarts(journal, acceptedAt);
          unsure.add(r.id());
          // its live copies may be lost, or a store waits for its start: read it now
          if (liveLost || journal.durable()) backfill(start, 0, 0, -1, true);
          continue;
        }
        room = new RoomLedger(r.id(), -1, -1);
        rooms.put(room);
      }
      // a room whose start is not sure yet is read from its cut-off now: its live copies may never come
      boolean behind = room.seq < 0 || r.lastMessageSeq() > room.seq || r.rev() > room.rev || room.hasRevisionGap()
          || room.startCutoff > 0;
      if (syncCutoff > 0) {
        // after a loss every room's receipts are read; its messages and changes only when behind
        sync.add(backfill(room, syncCutoff, room.seq < 0 ? syncCutoff : 0, r.rev(), behind));
      } else if (behind) {
        backfill(room, 0, 0, -1, true);
      }
    }
    journal.listingDone();
    // rooms first seen live during the listing but not listed (left again?) deliver what was sent since the
    // loss, or (before the first listing) since the acceptance: not their whole history
    for (RoomLedger room : rooms.all()) {
      if (room.seq >= 0 || room.backfill != null) continue;
      RoomBackfill b = backfill(room, syncCutoff, syncCutoff > 0 ? syncCutoff : acceptance, -1, true);
      if (sync != null) sync.add(b);
    }
    maybeFinishSync();
  }

  private RoomLedger ledger(String roomId) {
    return rooms.get(roomId);
  }

  /** Called by a room back-fill when it finished. */
  void onBackfillFinished(RoomBackfill done) {
    running--;
    RoomLedger room = done.room;
    if (room.backfill == done) room.backfill = null;
    sink.publish(EventType.RECOVERY, new RecoveryEvent(RecoveryEvent.Phase.FINISHED, room.roomId, 1,
        done.messages, done.updates, done.receipts));
    if (sync != null) sync.finished(done);
    if (!done.gaveUp) {
      drainHeld(room);
      if (!room.held.isEmpty() && room.held.firstKey() > room.seq + 1) backfill(room, 0, 0, -1, true);
    }
    startWaiting();
    maybeFinishSync();
  }

  private void maybeFinishSync() {
    if (syncCutoff == 0 || listing || sync.pending()) return;
    syncCutoff = 0;
    sink.publish(EventType.RECOVERY, sync.report());
    sync = null;
  }

  /** Stops every back-fill and retry; nothing is delivered after. */
  public void close() {
    closed = true;
    if (listRetry != null) listRetry.cancel();
    for (RoomLedger room : rooms.all()) {
      if (room.backfill != null) room.backfill.cancel();
    }
    waiting.clear();
  }

  /** Returns the number of rooms remembered (tests: the memory bound). */
  public int roomCount() {
    return rooms.size();
  }

  // ---------------------------------------------------------------- back-fills

  /**
   * Starts (or extends) the back-fill of {@code room}. {@code receiptsSince} > 0: read the receipts too
   * (after a loss); {@code historySince} > 0: the room is new to the client, deliver what was sent from that
   * wall-clock time, its changes from {@code baseRev}; {@code messages}: read messages and changes (false:
   * the room is up to date, only its receipts are read).
   */
  RoomBackfill backfill(RoomLedger room, long receiptsSince, long historySince, long baseRev, boolean messages) {
    if (room.backfill != null) {
      room.backfill.again(receiptsSince, historySince, baseRev, messages);
      return room.backfill;
    }
    RoomBackfill b = new RoomBackfill(this, room, receiptsSince, historySince, baseRev, messages);
    room.backfill = b;
    if (running < MAX_CONCURRENT_BACKFILLS) {
      running++;
      b.start();
    } else {
      waiting.add(b);
    }
    return b;
  }

  private void startWaiting() {
    while (running < MAX_CONCURRENT_BACKFILLS && !waiting.isEmpty()) {
      RoomBackfill next = waiting.poll();
      if (next.cancelled) continue;
      running++;
      next.start();
    }
  }

  /** Called by a back-fill that gives up on a room the user cannot read any more. */
  void forget(RoomLedger room) {
    rooms.remove(room);
    journal.forgotten(room.roomId);
    covered(room);
  }

  boolean isClosed() {
    return closed;
  }

  void deliverNew(RoomLedger room, Message m, RoomBackfill by) {
    room.started(); // a late live copy of this message is a repeat, not a new start
    room.seq = m.seq();
    room.markApplied(m.id(), m.rev());
    journal.delivered(m, room.seq, room.rev); // before the publish: a store's write goes with the event
    covered(room);
    sink.publish(EventType.NEW_MESSAGE, m);
    if (by != null) by.messages++;
  }

  void deliverUpdate(RoomLedger room, Message m, RoomBackfill by) {
    room.markApplied(m.id(), m.rev());
    journal.delivered(m, room.startCutoff > 0 ? -1 : room.seq, room.rev); // an unsure start is not journaled
    sink.publish(EventType.MESSAGE_UPDATED, m);
    if (by != null) by.updates++;
  }

  /** A receipt read by a back-fill is delivered: recorded for the store. */
  void receiptDelivered(Receipt r) {
    journal.receipt(r);
  }

  /** The room's watermarks moved without a delivery: recorded for the store. */
  void watermarksMoved(RoomLedger room) {
    journal.watermarks(room.roomId, room.seq, room.rev);
    covered(room);
  }

  private void covered(RoomLedger room) {
    if (unsure != null && unsure.covered(room.roomId)) unsure = null;
  }

  /** Holds {@code m} of a room whose start is unsure and reads the room from its cut-off, once. */
  private void readFromCutoff(RoomLedger room, Message m) {
    room.hold(m);
    if (room.backfill == null) backfill(room, 0, 0, -1, true);
  }

  /** Delivers the held messages that now follow without a gap. */
  void drainHeld(RoomLedger room) {
    for (Message next = room.nextHeld(); next != null; next = room.nextHeld()) deliverNew(room, next, null);
  }

  /** A revision above the watermark is missing: read the changes unless it turns up shortly. */
  private void watchRevisionGap(final RoomLedger room) {
    if (!fetches || !room.hasRevisionGap() || room.gapTimer != null) return;
    room.gapTimer = actor.schedule(() -> {
      room.gapTimer = null;
      if (!closed && room.hasRevisionGap() && ledger(room.roomId) == room) backfill(room, 0, 0, -1, true);
    }, REVISION_GAP_GRACE_MILLIS);
  }

  /**
   * Runs {@code onValue} or {@code onError} on the actor when {@code future} completes, unless the client
   * closed or {@code current} says the answer is stale by then.
   */
  <T> void whenDone(CompletableFuture<T> future, final BooleanSupplier current, final Consumer<T> onValue,
      final Consumer<Throwable> onError) {
    future.whenComplete((value, error) -> actor.execute(() -> {
      if (closed || !current.getAsBoolean()) return;
      if (error == null) {
        onValue.accept(value);
      } else {
        onError.accept(CallbackExecutor.unwrap(error));
      }
    }));
  }
}
