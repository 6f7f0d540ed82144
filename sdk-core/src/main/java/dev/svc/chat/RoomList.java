package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A snapshot of the user's room list ({@link ChatClient#roomList}): every room the client knows, most recently
 * active first, with the unread counts and their total. Immutable: each change of the list is a new snapshot, and a
 * handler never receives two equal snapshots in a row (a reconnect that changed nothing gives none).
 */
public final class RoomList {
  private final List<RoomSummary> rooms;
  private final int totalUnread;
  private final boolean totalCapped;
  private final boolean fromStore;

  /**
   * Creates a snapshot.
   *
   * @param rooms the rooms, most recently active first
   * @param totalUnread the sum of the rooms' unread counts
   * @param totalCapped whether a room's count was capped, so the total is at least this
   * @param fromStore whether it was read from the offline store, before the service was reached
   */
  public RoomList(List<RoomSummary> rooms, int totalUnread, boolean totalCapped, boolean fromStore) {
    this.rooms = Collections.unmodifiableList(new ArrayList<>(rooms));
    this.totalUnread = totalUnread;
    this.totalCapped = totalCapped;
    this.fromStore = fromStore;
  }

  /**
   * Returns the rooms, most recently active first.
   *
   * @return an unmodifiable list
   */
  public List<RoomSummary> rooms() {
    return rooms;
  }

  /**
   * Returns the unread messages of every room together.
   *
   * @return the total
   */
  public int totalUnread() {
    return totalUnread;
  }

  /**
   * Returns whether a room's count was capped, so that the total is a lower bound: show "999+".
   *
   * @return true when capped
   */
  public boolean totalCapped() {
    return totalCapped;
  }

  /**
   * Returns whether this snapshot was read from the offline store before the client was in touch with the service
   * (an app started offline shows it at once); later snapshots follow the service.
   *
   * @return true for the store's snapshot
   */
  public boolean fromStore() {
    return fromStore;
  }

  /**
   * Returns the summary of a room.
   *
   * @param roomId the room
   * @return its summary, or null when the list does not hold it
   */
  public @org.jspecify.annotations.Nullable RoomSummary room(String roomId) {
    for (RoomSummary s : rooms) {
      if (s.room().id().equals(roomId)) return s;
    }
    return null;
  }

  /**
   * Returns whether {@code o} is a room list with the same rooms in the same order, the same total and the same
   * {@link #fromStore()} mark: two equal snapshots never follow each other.
   *
   * @param o the other object
   * @return true when equal
   */
  @Override
  public boolean equals(@org.jspecify.annotations.Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof RoomList)) return false;
    RoomList l = (RoomList) o;
    return totalUnread == l.totalUnread && totalCapped == l.totalCapped && fromStore == l.fromStore
        && rooms.equals(l.rooms);
  }

  @Override
  public int hashCode() {
    return 31 * rooms.hashCode() + totalUnread;
  }

  @Override
  public String toString() {
    return "RoomList{rooms=" + rooms.size() + ", totalUnread=" + totalUnread + (totalCapped ? "+" : "") + "}";
  }
}
