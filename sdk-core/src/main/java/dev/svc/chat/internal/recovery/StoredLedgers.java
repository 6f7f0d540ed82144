package dev.svc.chat.internal.recovery;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;

/** The room ledgers an offline store's state starts from. */
final class StoredLedgers {
  private StoredLedgers() {
  }

  /**
   * Returns a ledger per stored room whose watermarks are known, with the changes events delivered above its
   * revision watermark and the receipts delivered recorded, so that none of them is delivered again. What the
   * store only kept from pages is not among {@link StoredState#changedAbove()}: recovery delivers it.
   */
  static Map<String, RoomLedger> of(StoredState state) {
    Map<String, RoomLedger> ledgers = new LinkedHashMap<>();
    for (StoredRoom stored : state.rooms()) {
      if (stored.seq() < 0 || stored.rev() < 0) continue; // never started: listed afresh
      ledgers.put(stored.room().id(), new RoomLedger(stored.room().id(), stored.seq(), stored.rev(), RoomState.LIVE));
    }
    for (Message m : state.changedAbove()) {
      RoomLedger room = ledgers.get(m.roomId());
      if (room != null && m.seq() <= room.seq) room.markApplied(m);
    }
    for (Receipt r : state.receipts()) {
      RoomLedger room = ledgers.get(r.roomId());
      if (room != null) room.newerReceipt(r);
    }
    return ledgers;
  }
}
