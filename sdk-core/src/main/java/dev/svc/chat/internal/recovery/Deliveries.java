package dev.svc.chat.internal.recovery;

import dev.svc.chat.ClientError;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.internal.util.Log;

/**
 * Hands each delivery to the journal (the offline store), then to the handlers. The journal goes first, so a
 * store's write goes with its event; a journal that fails is reported and the event delivered all the same: the
 * store's loss is at worst a repeat after a restart, never a message the app did not get. Confined to the actor.
 */
final class Deliveries {
  private final DeliverySink sink;
  private final Log log;
  RecoveryJournal journal = RecoveryJournal.NONE;

  Deliveries(DeliverySink sink, Log log) {
    this.sink = sink;
    this.log = log;
  }

  /** Delivers {@code m} as {@code type}; the room's ledger already counts it. */
  void message(EventType<Message> type, RoomLedger room, Message m) {
    try {
      journal.delivered(m, room.seq, room.rev);
    } catch (RuntimeException e) {
      journalFailed(room.roomId, e);
    }
    sink.publish(type, m);
  }

  /** Delivers {@code r}, recorded for the store first. */
  void receipt(Receipt r) {
    try {
      journal.receipt(r);
    } catch (RuntimeException e) {
      journalFailed(r.roomId(), e);
    }
    sink.publish(EventType.ROOM_READ, r);
  }

  /** Records the room's watermarks, which moved without a delivery. */
  void watermarks(RoomLedger room) {
    try {
      journal.watermarks(room.roomId, room.seq, room.rev);
    } catch (RuntimeException e) {
      journalFailed(room.roomId, e);
    }
  }

  private void journalFailed(String roomId, RuntimeException e) {
    log.warn("recording a delivery for the offline store failed", e);
    sink.report(new ClientError(ClientError.Kind.STORE_IO, "recording a delivery of room " + roomId
        + " for the offline store failed (" + e + "); the event is delivered", roomId, e));
  }
}
