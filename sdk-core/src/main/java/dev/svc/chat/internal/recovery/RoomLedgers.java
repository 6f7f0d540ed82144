package dev.svc.chat.internal.recovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rooms' ledgers by room id, least recently active first. At most {@link #MAX_ROOMS} are remembered: past
 * it the least recently active one is forgotten (bounded memory). The map is made with the first room, so a
 * client in no room (a bot of a fleet) holds none. Confined to the client's actor.
 */
final class RoomLedgers {
  /** Rooms remembered at most. */
  static final int MAX_ROOMS = 10_000;

  private LinkedHashMap<String, RoomLedger> rooms;

  /** Returns the ledger of {@code roomId}, or null when the room is not remembered; counts as activity. */
  RoomLedger get(String roomId) {
    return rooms == null ? null : rooms.get(roomId);
  }

  /** Remembers {@code ledger} for its room, in place of any other. */
  void put(RoomLedger ledger) {
    if (rooms == null) {
      rooms = new LinkedHashMap<String, RoomLedger>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RoomLedger> eldest) {
          return size() > MAX_ROOMS;
        }
      };
    }
    rooms.put(ledger.roomId, ledger);
  }

  /** Forgets {@code ledger}'s room if {@code ledger} is still the one remembered for it. */
  void remove(RoomLedger ledger) {
    if (get(ledger.roomId) == ledger) rooms.remove(ledger.roomId);
  }

  /**
   * Returns the ledgers, least recently active first, as a copy: the map is ordered by access, so a
   * {@link #get} while iterating a live view would restructure it under the iteration.
   */
  List<RoomLedger> all() {
    return rooms == null ? Collections.<RoomLedger>emptyList() : new ArrayList<>(rooms.values());
  }

  /** Returns the number of rooms remembered. */
  int size() {
    return rooms == null ? 0 : rooms.size();
  }
}
