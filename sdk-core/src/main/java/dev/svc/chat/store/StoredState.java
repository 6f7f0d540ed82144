package dev.svc.chat.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.Receipt;

/** What a client reads from its store when it starts ({@link ChatStore#load()}). */
public final class StoredState {
  private final List<StoredRoom> rooms;
  private final List<Receipt> receipts;
  private final List<Message> changedAbove;
  private final List<StoredSend> sends;
  private final long writtenAt;
  private final List<Receipt> pendingReads;

  /**
   * Creates a state.
   *
   * @param rooms the rooms with their watermarks
   * @param receipts the latest receipt per room and user
   * @param changedAbove the messages events delivered whose {@code rev} is above their room's revision watermark
   *     (the changes applied out of order, which recovery must not deliver again), each in the revision delivered;
   *     none the store only kept from the service's answers ({@link StoreWrite#keptMessage})
   * @param sends the pending sends in {@link StoredSend#sequence()} order
   * @param writtenAt the service's time of the last thing the client saw when the store was last written, epoch
   *     milliseconds by the service's clock (0: not known); a room joined meanwhile is read from it
   */
  public StoredState(List<StoredRoom> rooms, List<Receipt> receipts, List<Message> changedAbove,
      List<StoredSend> sends, long writtenAt) {
    this(rooms, receipts, changedAbove, sends, writtenAt, Collections.<Receipt>emptyList());
  }

  /**
   * Creates a state with the user's reads the service has not confirmed.
   *
   * @param rooms the rooms with their watermarks
   * @param receipts the latest receipt per room and user
   * @param changedAbove the messages events delivered whose {@code rev} is above their room's revision watermark
   * @param sends the pending sends in {@link StoredSend#sequence()} order
   * @param writtenAt the service's time of the last thing the client saw when the store was last written, epoch
   *     milliseconds by the service's clock (0: not known); a room joined meanwhile is read from it
   * @param pendingReads the user's reads not confirmed by the service, one per room
   */
  public StoredState(List<StoredRoom> rooms, List<Receipt> receipts, List<Message> changedAbove,
      List<StoredSend> sends, long writtenAt, List<Receipt> pendingReads) {
    this.pendingReads = Collections.unmodifiableList(new ArrayList<>(pendingReads));
    this.rooms = Collections.unmodifiableList(new ArrayList<>(rooms));
    this.receipts = Collections.unmodifiableList(new ArrayList<>(receipts));
    this.changedAbove = Collections.unmodifiableList(new ArrayList<>(changedAbove));
    this.sends = Collections.unmodifiableList(new ArrayList<>(sends));
    this.writtenAt = writtenAt;
  }

  /**
   * Returns the state of a store that holds nothing.
   *
   * @return an empty state
   */
  public static StoredState empty() {
    List<StoredRoom> none = Collections.emptyList();
    return new StoredState(none, Collections.<Receipt>emptyList(), Collections.<Message>emptyList(),
        Collections.<StoredSend>emptyList(), 0);
  }

  /** @return the rooms with their watermarks */
  public List<StoredRoom> rooms() {
    return rooms;
  }

  /** @return the latest receipt per room and user */
  public List<Receipt> receipts() {
    return receipts;
  }

  /**
   * Returns the changes events delivered above each room's revision watermark. A message the store only kept from
   * the service's answers (a page, {@link StoreWrite#keptMessage}), or whose stored revision is newer than the one
   * delivered, is not among them: recovery delivers its change as an event.
   *
   * @return the messages events delivered whose revision is above their room's revision watermark, each in that
   *     revision
   */
  public List<Message> changedAbove() {
    return changedAbove;
  }

  /** @return the pending sends, oldest first */
  public List<StoredSend> sends() {
    return sends;
  }

  /** @return the user's reads the service has not confirmed, one per room (sent again after a restart) */
  public List<Receipt> pendingReads() {
    return pendingReads;
  }

  /**
   * @return the service's time of the last thing the client saw when the store was last written (epoch
   *     milliseconds by the service's clock); 0 when not known
   */
  public long writtenAt() {
    return writtenAt;
  }

  /** @return whether the store holds nothing */
  public boolean isEmpty() {
    return rooms.isEmpty() && sends.isEmpty() && receipts.isEmpty();
  }
}
