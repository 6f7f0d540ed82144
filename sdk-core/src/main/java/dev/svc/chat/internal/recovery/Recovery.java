package dev.svc.chat.internal.recovery;

import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import dev.svc.chat.ConnectionReason;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.Room;
import dev.svc.chat.internal.realtime.ReconnectPolicy;
import dev.svc.chat.internal.realtime.StartPositions;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;

/**
 * Exactly-once, in-order delivery of every room's messages, changes and receipts, whatever the connection
 * does. Live events pass through here; what they skip, and what happened while the client was away, is
 * fetched over REST and delivered in their place:
 *
 * <ul>
 *   <li>Each room has a {@link RoomLedger}: the highest {@code seq} delivered with no gap, the revision watermark,
 *       and its {@link RoomState}. A new message is delivered only when it is the next seq; a later one is held
 *       and the room back-filled; an earlier one is a repeat and dropped. A change is delivered once per revision.
 *   <li>Each accepted connection's CONNECT answer says where its delivery starts ({@link StartPositions}): every
 *       message above a room's position comes live on it, so a room the client holds nothing of starts there, and
 *       a room whose ledger is below its position is back-filled up to it (and on: reads go to the newest). After
 *       a loss every room's receipts are read too, and a room the client did not know (joined while away) delivers
 *       what was sent since the service's time of the last thing the client saw ({@link ServiceTime}).
 *   <li>A position below a room's ledger (the service went back to an older state) is reported and taken: the
 *       room starts again there, so that later messages are not dropped as repeats.
 *   <li>A service that gives no positions is listed instead ({@link RecoverySource#listRooms}), and the listing
 *       serves as the positions; rooms are listed after every connection in any case, for the journal.
 *   <li>A request that fails is retried with backoff until it succeeds; a gap is never skipped. A room the user
 *       cannot read (403, 404) is reported and set aside ({@link RoomState#GONE}) until a live event shows access
 *       came back.
 * </ul>
 *
 * Confined to the client's actor ({@link Scheduler}); answers of requests are posted back to it. It owns no
 * thread and reads no clock, so it runs as well on a shared pool or virtual time.
 */
public final class Recovery {
  /** Room back-fills running at once; others wait their turn. */
  static final int MAX_CONCURRENT_BACKFILLS = 4;
  /** How long a revision gap may stay open (events can arrive out of order) before the changes are read. */
  static final long REVISION_GAP_GRACE_MILLIS = 500;

  final Scheduler actor;
  final RecoverySource source;
  final DeliverySink sink;
  final ReconnectPolicy backoff;
  final Log log;
  /** False: nothing is fetched; live events are delivered as they come, repeats dropped. */
  private final boolean fetches;
  final RoomLedgers rooms = new RoomLedgers();
  private final BackfillSlots slots = new BackfillSlots(MAX_CONCURRENT_BACKFILLS);
  final ServiceTime serviceTime = new ServiceTime();
  final Deliveries deliveries;
  private boolean closed;

  /** Whether a connection was accepted or a store restored: the ledgers speak for the rooms they hold. */
  private boolean started;
  /** A connection was lost (or events shed) since the last accepted one: the next one catches up every room. */
  private boolean lost;
  final RoomPlacement placement = new RoomPlacement(this);

  public Recovery(Scheduler actor, RecoverySource source, DeliverySink sink, ReconnectPolicy backoff,
      boolean fetches, Log log) {
    this.fetches = fetches;
    this.actor = actor;
    this.source = source;
    this.sink = sink;
    this.backoff = backoff;
    this.log = log;
    this.deliveries = new Deliveries(sink, log);
  }

  /** Records deliveries and watermarks in {@code journal} (the offline store); set before the first connect. */
  public void journal(RecoveryJournal journal) {
    deliveries.journal = journal;
    serviceTime.journal(journal);
  }

  /**
   * Starts from what the offline store kept (actor, before the first connect): each stored room resumes from
   * its watermarks, the changes applied above its revision watermark and the receipts delivered are not
   * delivered again, and the next connection recovers as after a loss at the service time the store kept.
   */
  public void restore(dev.svc.chat.store.StoredState state) {
    if (state.rooms().isEmpty()) return;
    for (RoomLedger room : StoredLedgers.of(state).values()) rooms.put(room);
    serviceTime.saw(state.writtenAt());
    started = true;
    lost = true;
  }

  // ---------------------------------------------------------------- live events (actor)

  /** A live {@code new-message}. */
  public void onNewMessage(Message m) {
    serviceTime.saw(m.createdAt());
    RoomLedger room = rooms.get(m.roomId());
    if (room == null) {
      if (placement.placing) {
        room = new RoomLedger(m.roomId(), -1, -1, RoomState.PLACING); // the listing under way says where it starts
        rooms.put(room);
        room.hold(m);
        return;
      }
      // a room joined since the connection's answer: this message is where its delivery starts
      room = new RoomLedger(m.roomId(), m.seq() - 1, m.rev() - 1, RoomState.LIVE);
      rooms.put(room);
    } else if (room.state() == RoomState.UNSTARTED) {
      room.seq = m.seq() - 1;
      room.moveTo(RoomState.LIVE);
    }
    if (room.state().holdsNewMessages()) {
      room.hold(m);
      if (room.state() == RoomState.GONE && m.seq() > room.seq) backfill(room, Ask.messages()); // access is back
      return;
    }
    if (m.seq() <= room.seq) {
      if (log.isDebug()) log.debug("dropped a repeat of message " + m.roomId() + "#" + m.seq());
      return;
    }
    if (m.seq() > room.seq + 1 && fetches) {
      room.hold(m);
      if (log.isDebug()) log.debug("room " + room.roomId + " skipped from seq " + room.seq + " to " + m.seq());
      backfill(room, Ask.messages());
      return;
    }
    deliverNew(room, m, null); // without fetches a gap stays and delivery goes on
    drainHeld(room);
    watchRevisionGap(room);
  }

  /** A live {@code message-updated}. */
  public void onMessageUpdated(Message m) {
    RoomLedger room = rooms.get(m.roomId());
    if (room == null) {
      if (placement.placing) {
        room = new RoomLedger(m.roomId(), -1, -1, RoomState.PLACING);
        rooms.put(room);
        room.hold(m); // its new message may have been shed: delivered new, once, in this state
        return;
      }
      // a room joined since the connection's answer, first seen by a change: its seq is not known yet
      room = new RoomLedger(m.roomId(), -1, m.rev() - 1, RoomState.UNSTARTED);
      rooms.put(room);
    }
    RoomState state = room.state();
    if (state == RoomState.UNSTARTED || !fetches && m.seq() > room.seq) {
      if (!room.applied(m.id(), m.rev())) deliverUpdate(room, m, null);
      return;
    }
    if (m.seq() > room.seq) {
      // its new message was not delivered yet: deliver it once, in this later state
      boolean underway = room.held.containsKey(m.seq()) || state != RoomState.LIVE;
      room.hold(m);
      if (!underway) backfill(room, Ask.messages());
      return;
    }
    if (room.applied(m.id(), m.rev())) {
      if (log.isDebug()) log.debug("dropped a repeat of change " + m.roomId() + " rev " + m.rev());
      return;
    }
    deliverUpdate(room, m, null);
    watchRevisionGap(room);
  }

  /** A live {@code room-read}. */
  public void onReceipt(Receipt r) {
    RoomLedger room = rooms.get(r.roomId());
    if (room == null || room.newerReceipt(r)) deliveries.receipt(r);
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
    if (started) lost = true;
    for (RoomLedger room : rooms.all()) room.readSinceLoss = false;
  }

  /**
   * The inbound gate shed live events while the handlers were far behind: every room is caught up as after a
   * loss, its pages read as the handlers take them ({@link DeliverySink#whenHandled}); the rooms are listed to
   * place those whose first events were shed.
   */
  public void onEventsShed() {
    if (closed || !fetches) return;
    log.info("handlers fell behind and live events were shed; catching every room up from the history");
    lost = true;
    connected(StartPositions.NONE);
  }

  /** A connection was accepted (a first connect, a reconnect, a token refresh): every room is caught up. */
  public void onConnected(StartPositions positions) {
    if (closed || !fetches) return;
    connected(positions);
  }

  private void connected(StartPositions positions) {
    boolean afterLoss = started && lost;
    lost = false;
    started = true;
    placement.connected(positions, afterLoss);
  }

  /** Called by a room back-fill when it finished. */
  void onBackfillFinished(RoomBackfill done) {
    finished(done, false);
    RoomLedger room = done.room;
    if (!done.gaveUp && rooms.get(room.roomId) == room) {
      room.moveTo(RoomState.LIVE);
      drainHeld(room);
      if (!room.held.isEmpty() && room.held.firstKey() > room.seq + 1) backfill(room, Ask.messages());
    }
    placement.maybeFinishSync();
  }

  void finished(RoomBackfill done, boolean cancelled) {
    done.done = true;
    RoomLedger room = done.room;
    if (room.backfill == done) room.backfill = null;
    if (done.started) {
      slots.release();
      if (!cancelled) {
        sink.publish(EventType.RECOVERY, new RecoveryEvent(RecoveryEvent.Phase.FINISHED, room.roomId, 1,
            done.messages, done.updates, done.receipts));
      }
    }
    placement.finished(done);
  }

  /** Stops every back-fill and retry; nothing is delivered after. */
  public void close() {
    closed = true;
    placement.close();
    for (RoomLedger room : rooms.all()) {
      if (room.backfill != null) room.backfill.cancel();
    }
    slots.clear();
  }

  /** Returns the number of rooms remembered (tests: the memory bound). */
  public int roomCount() {
    return rooms.size();
  }

  /** Returns each remembered room's ledger and state, one line a room, for a diagnostic report (actor). */
  public String describeRooms() {
    StringBuilder out = new StringBuilder();
    for (RoomLedger room : rooms.all()) out.append(room).append('\n');
    return out.toString();
  }

  // ---------------------------------------------------------------- back-fills

  /** Starts (or extends) the back-fill of {@code room} with what {@code ask} asks for; returns it. */
  RoomBackfill backfill(RoomLedger room, Ask ask) {
    if (room.backfill != null) {
      room.backfill.again(ask);
      return room.backfill;
    }
    RoomBackfill b = new RoomBackfill(this, room, ask);
    room.backfill = b;
    room.moveTo(RoomState.QUEUED);
    slots.submit(b);
    return b;
  }

  /** Called by a back-fill that gives up on a room the user cannot read any more. */
  void lostAccess(RoomLedger room) {
    deliveries.journal.forgotten(room.roomId);
    room.moveTo(RoomState.GONE);
    room.held.clear();
  }

  boolean isClosed() {
    return closed;
  }

  void deliverNew(RoomLedger room, Message m, RoomBackfill by) {
    room.seq = m.seq();
    room.markApplied(m);
    if (by != null) {
      room.readSinceLoss = true;
      by.messages++;
    }
    deliveries.message(EventType.NEW_MESSAGE, room, m);
  }

  void deliverUpdate(RoomLedger room, Message m, RoomBackfill by) {
    room.markApplied(m);
    if (by != null) {
      room.readSinceLoss = true;
      by.updates++;
    }
    deliveries.message(EventType.MESSAGE_UPDATED, room, m);
  }

  /** A receipt read by a back-fill is delivered. */
  void receiptDelivered(Receipt r) {
    deliveries.receipt(r);
  }

  /** The room's watermarks moved without a delivery: recorded for the store. */
  void watermarksMoved(RoomLedger room, boolean byRead) {
    if (byRead) room.readSinceLoss = true;
    deliveries.watermarks(room);
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
      boolean current = rooms.get(room.roomId) == room && room.state() == RoomState.LIVE;
      if (!closed && current && room.hasRevisionGap()) backfill(room, Ask.messages());
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
