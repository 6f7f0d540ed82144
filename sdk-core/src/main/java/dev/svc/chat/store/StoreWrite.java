package dev.svc.chat.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;

/**
 * The changes of one transaction ({@link ChatStore#write}), gathered by the client. An implementation applies
 * them in this order: rooms removed, rooms, messages, receipts, watermarks, sends, ended sends; and keeps the
 * rules of {@link ChatStore}: a message older than the stored one is ignored, a receipt never moves
 * backwards. Not thread-safe: the client fills it on its engine and hands it to the I/O queue whole.
 */
public final class StoreWrite {
  /** A room's watermarks as of this write. */
  public static final class Watermark {
    private final String roomId;
    private final long seq;
    private final long rev;

    Watermark(String roomId, long seq, long rev) {
      this.roomId = roomId;
      this.seq = seq;
      this.rev = rev;
    }

    /** @return the room */
    public String roomId() {
      return roomId;
    }

    /** @return the highest seq delivered with every one below it delivered */
    public long seq() {
      return seq;
    }

    /** @return the revision below which every change was applied */
    public long rev() {
      return rev;
    }

    @Override
    public String toString() {
      return "Watermark{" + roomId + ", seq=" + seq + ", rev=" + rev + "}";
    }
  }

  private final List<String> removedRooms = new ArrayList<>(0);
  private final Map<String, Room> rooms = new LinkedHashMap<>();
  private final Map<String, Message> messages = new LinkedHashMap<>();
  private final Map<String, Receipt> receipts = new LinkedHashMap<>();
  private final Map<String, Watermark> watermarks = new LinkedHashMap<>();
  private final List<StoredSend> sends = new ArrayList<>(0);
  private final List<String> endedSends = new ArrayList<>(0);
  private final Map<String, Receipt> pendingReads = new LinkedHashMap<>();
  private final Map<String, Long> sentReads = new LinkedHashMap<>();
  private long writtenAt;

  /** Creates an empty write. */
  public StoreWrite() {
  }

  /**
   * Stores {@code room} (its name, members, last message and revision), replacing what was stored of it.
   *
   * @param room the room
   * @return this
   */
  public StoreWrite room(Room room) {
    rooms.put(room.id(), room);
    return this;
  }

  /**
   * Removes a room and everything stored of it (the user left it or lost access).
   *
   * @param roomId the room
   * @return this
   */
  public StoreWrite removeRoom(String roomId) {
    rooms.remove(roomId);
    watermarks.remove(roomId);
    removedRooms.add(roomId);
    return this;
  }

  /**
   * Stores {@code message} unless a revision at least as new is stored (in this write or before).
   *
   * @param message the message
   * @return this
   */
  public StoreWrite message(Message message) {
    Message known = messages.get(message.id());
    if (known == null || message.rev() > known.rev()) messages.put(message.id(), message);
    return this;
  }

  /**
   * Stores {@code receipt} unless a receipt of the same room and user with a seq at least as high is stored.
   *
   * @param receipt the receipt
   * @return this
   */
  public StoreWrite receipt(Receipt receipt) {
    String key = receipt.roomId() + '\n' + receipt.userId();
    Receipt known = receipts.get(key);
    if (known == null || receipt.seq() > known.seq()) receipts.put(key, receipt);
    return this;
  }

  /**
   * Sets a room's watermarks. A room not stored yet is stored with its id only, until it is listed.
   *
   * @param roomId the room
   * @param seq the highest seq delivered with every one below it delivered
   * @param rev the revision below which every change was applied
   * @return this
   */
  public StoreWrite watermarks(String roomId, long seq, long rev) {
    watermarks.put(roomId, new Watermark(roomId, seq, rev));
    return this;
  }

  /**
   * Adds a pending send to the outbox.
   *
   * @param send the send
   * @return this
   */
  public StoreWrite send(StoredSend send) {
    sends.add(send);
    return this;
  }

  /**
   * Removes a send from the outbox (it was sent, refused or timed out).
   *
   * @param clientMessageId the send's idempotency key
   * @return this
   */
  public StoreWrite endSend(String clientMessageId) {
    endedSends.add(clientMessageId);
    return this;
  }

  /**
   * Keeps the user's own read that the service has not confirmed yet (a {@code markRead} made offline), the
   * latest per room, to be sent again after a restart; the store also keeps it as the user's receipt.
   *
   * @param read the user's receipt
   * @return this
   */
  public StoreWrite pendingRead(Receipt read) {
    Receipt known = pendingReads.get(read.roomId());
    if (known == null || read.seq() > known.seq()) pendingReads.put(read.roomId(), read);
    receipt(read);
    return this;
  }

  /**
   * Removes a room's pending read once the service confirmed a read up to {@code seq} (a later pending read stays).
   *
   * @param roomId the room
   * @param seq the seq the service confirmed
   * @return this
   */
  public StoreWrite readSent(String roomId, long seq) {
    Long known = sentReads.get(roomId);
    if (known == null || seq > known) sentReads.put(roomId, seq);
    return this;
  }

  /**
   * Records the service's time of the last thing the client saw when this write was made (0: not known); the
   * store keeps the latest and returns it as {@link StoredState#writtenAt()}.
   *
   * @param epochMillis the service's time, epoch milliseconds
   * @return this
   */
  public StoreWrite writtenAt(long epochMillis) {
    this.writtenAt = epochMillis;
    return this;
  }

  /** @return the rooms to remove with everything of them */
  public List<String> removedRooms() {
    return Collections.unmodifiableList(removedRooms);
  }

  /** @return the rooms to store */
  public List<Room> rooms() {
    return Collections.unmodifiableList(new ArrayList<>(rooms.values()));
  }

  /** @return the messages to store, each in the latest revision this write has of it */
  public List<Message> messages() {
    return Collections.unmodifiableList(new ArrayList<>(messages.values()));
  }

  /** @return the receipts to store, the latest per room and user */
  public List<Receipt> receipts() {
    return Collections.unmodifiableList(new ArrayList<>(receipts.values()));
  }

  /** @return the watermarks to set, the latest per room */
  public List<Watermark> watermarks() {
    return Collections.unmodifiableList(new ArrayList<>(watermarks.values()));
  }

  /** @return the sends to add, in the order added */
  public List<StoredSend> sends() {
    return Collections.unmodifiableList(sends);
  }

  /** @return the idempotency keys of the sends to remove */
  public List<String> endedSends() {
    return Collections.unmodifiableList(endedSends);
  }

  /** @return the pending reads to keep, the latest per room */
  public List<Receipt> pendingReads() {
    return Collections.unmodifiableList(new ArrayList<>(pendingReads.values()));
  }

  /** @return the rooms whose pending read the service confirmed, with the seq confirmed */
  public Map<String, Long> sentReads() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(sentReads));
  }

  /** @return when the write was made, epoch milliseconds (0: not said) */
  public long writtenAt() {
    return writtenAt;
  }

  /** @return whether the write changes nothing */
  public boolean isEmpty() {
    return removedRooms.isEmpty() && rooms.isEmpty() && messages.isEmpty() && receipts.isEmpty()
        && watermarks.isEmpty() && sends.isEmpty() && endedSends.isEmpty() && pendingReads.isEmpty()
        && sentReads.isEmpty();
  }

  @Override
  public String toString() {
    return "StoreWrite{rooms=" + rooms.size() + ", removed=" + removedRooms.size() + ", messages=" + messages.size()
        + ", receipts=" + receipts.size() + ", watermarks=" + watermarks.size() + ", sends=" + sends.size()
        + ", ended=" + endedSends.size() + "}";
  }
}
