package dev.svc.chat.internal.recovery;

import java.util.ArrayList;
import java.util.List;

import dev.svc.chat.ClientError;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.Room;
import dev.svc.chat.internal.realtime.RoomPosition;
import dev.svc.chat.internal.realtime.StartPositions;
import dev.svc.chat.internal.util.Scheduler;

/**
 * Where each room's delivery starts, or from where it catches up, when a connection is accepted: at the CONNECT
 * answer's positions, or (a service that gives none, or events shed) at a listing of the rooms. Also the
 * reconnect's whole-recovery report ({@link SyncTally}): started when a connection after a loss is accepted,
 * finished when every room it placed was caught up. Part of {@link Recovery}, on its actor.
 */
final class RoomPlacement {
  private final Recovery owner;
  /** The sync after the latest accepted connection. */
  private int syncEpoch;
  /** The reconnect's recovery under way; null when none (most clients, most of the time). */
  private SyncTally sync;
  /** The listing under way places the rooms (no positions were given, or events were shed). */
  boolean placing;
  /** The service's time before the connection under way: rooms first seen after a loss are read from it. */
  private long historySince;
  /** Rooms are being added to the sync under way. */
  private boolean adding;
  private int listAttempt;
  private Scheduler.Timer listRetry;

  RoomPlacement(Recovery owner) {
    this.owner = owner;
  }

  /** The client closed: no listing is retried. */
  void close() {
    if (listRetry != null) listRetry.cancel();
  }

  /**
   * A connection was accepted, or events were shed ({@link StartPositions#NONE}); {@code afterLoss}: the client
   * held rooms and missed events since.
   */
  void connected(StartPositions positions, boolean afterLoss) {
    syncEpoch++;
    if (afterLoss && sync == null) {
      sync = new SyncTally();
      owner.sink.publish(EventType.RECOVERY, new RecoveryEvent(RecoveryEvent.Phase.STARTED, null, 0, 0, 0, 0));
    }
    historySince = owner.serviceTime.latest();
    owner.serviceTime.saw(positions.at());
    listAttempt = 0;
    if (listRetry != null) listRetry.cancel();
    placing = !positions.given();
    adding = true; // back-fills that finish at once must not end the sync before every room joined it
    if (positions.given()) place(positions.rooms(), afterLoss, positions.handover());
    adding = false;
    listRooms(syncEpoch, afterLoss);
    maybeFinishSync();
  }

  /** Lists the rooms: for the journal, and to place them when no positions were given. */
  private void listRooms(final int epoch, final boolean afterLoss) {
    owner.whenDone(owner.source.listRooms(), () -> epoch == syncEpoch, list -> onRoomsListed(list, afterLoss), error -> {
      owner.sink.report(new ClientError(ClientError.Kind.RECOVERY_RETRY, "listing the rooms failed; retrying: "
          + error.getMessage(), null, error));
      listRetry = owner.actor.schedule(() -> {
        if (epoch == syncEpoch && !owner.isClosed()) listRooms(epoch, afterLoss);
      }, owner.backoff.delayMillis(listAttempt++));
    });
  }

  private void onRoomsListed(List<Room> list, boolean afterLoss) {
    for (Room r : list) owner.deliveries.journal.listed(r);
    owner.deliveries.journal.listingDone();
    if (!placing) return;
    placing = false;
    List<RoomPosition> positions = new ArrayList<>(list.size());
    for (Room r : list) positions.add(new RoomPosition(r.id(), r.lastMessageSeq(), r.rev()));
    adding = true;
    place(positions, afterLoss, true);
    // rooms seen live during the listing but not listed (left again?) deliver what was sent since the loss, or
    // (no service time known) start at their first message seen
    for (RoomLedger room : owner.rooms.all()) {
      if (room.state() != RoomState.PLACING) continue;
      if (historySince > 0) {
        addToSync(owner.backfill(room, Ask.history(historySince, 0, -1)));
      } else {
        Message first = room.held.firstEntry().getValue();
        startAt(room, first.seq() - 1, first.rev() - 1);
      }
    }
    adding = false;
    maybeFinishSync();
  }

  /**
   * Starts or catches up each room at its position. {@code untrusted}: the ledger may be above a position without
   * the service having gone back (a handover's old connection, or positions that are a listing).
   */
  private void place(List<RoomPosition> positions, boolean afterLoss, boolean untrusted) {
    for (RoomPosition pos : positions) {
      RoomLedger room = owner.rooms.get(pos.roomId);
      RoomState state = room == null ? null : room.state();
      if (room == null || state == RoomState.UNSTARTED || state == RoomState.PLACING) {
        if (afterLoss && historySince > 0 || state == RoomState.PLACING && historySince > 0) {
          if (room == null) owner.rooms.put(room = new RoomLedger(pos.roomId, -1, -1, RoomState.UNSTARTED));
          room.seq = -1;
          addToSync(owner.backfill(room, Ask.history(historySince, pos.seq + 1, pos.rev).withReceipts(afterLoss)));
        } else if (room == null) {
          owner.rooms.put(room = new RoomLedger(pos.roomId, pos.seq, pos.rev, RoomState.LIVE));
          owner.deliveries.watermarks(room);
        } else {
          startAt(room, pos.seq, pos.rev);
        }
        continue;
      }
      if (!untrusted && !room.readSinceLoss && (pos.seq < room.seq || pos.rev < room.rev)) {
        rewound(room, pos);
        continue;
      }
      boolean behind = pos.seq > room.seq || pos.rev > room.rev || room.hasRevisionGap() || state == RoomState.GONE;
      if (afterLoss) {
        addToSync(owner.backfill(room, (behind ? Ask.messages() : Ask.receiptsOnly()).withReceipts(true)));
      } else if (behind) {
        owner.backfill(room, Ask.messages());
      }
    }
  }

  /** Starts a room not started yet at {@code seq} and {@code rev}; what it held above them follows. */
  private void startAt(RoomLedger room, long seq, long rev) {
    room.seq = seq;
    room.raiseWatermark(rev);
    room.moveTo(RoomState.LIVE);
    owner.deliveries.watermarks(room);
    owner.drainHeld(room);
    if (!room.held.isEmpty()) owner.backfill(room, Ask.messages());
  }

  /** The service is below what was delivered of the room: reported, and the room starts again at its position. */
  private void rewound(RoomLedger room, RoomPosition pos) {
    String what = "room " + room.roomId + ": the service is at seq " + pos.seq + ", rev " + pos.rev
        + ", below the delivered seq " + room.seq + ", rev " + room.rev
        + " (restored from an older state?); delivery starts again at the service's position";
    owner.log.warn(what, null);
    owner.sink.report(new ClientError(ClientError.Kind.ROOM_REWOUND, what, room.roomId, null));
    if (room.backfill != null) {
      room.backfill.cancel();
      owner.finished(room.backfill, true);
    }
    RoomLedger fresh = new RoomLedger(room.roomId, pos.seq, pos.rev, RoomState.LIVE);
    owner.rooms.put(fresh);
    owner.deliveries.watermarks(fresh);
  }

  void addToSync(RoomBackfill b) {
    if (sync != null && b != null) sync.add(b);
  }

  /** A back-fill finished: counted if it is part of the sync under way. */
  void finished(RoomBackfill done) {
    if (sync != null) sync.finished(done);
  }

  /** Reports the sync under way as finished once no room of it is left. */
  void maybeFinishSync() {
    if (sync == null || placing || adding || sync.pending()) return;
    owner.sink.publish(EventType.RECOVERY, sync.report());
    sync = null;
  }

}
