package dev.svc.chat.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import org.jspecify.annotations.Nullable;

/**
 * The changes of one transaction ({@link ChatStore#write}), gathered by the client. An implementation applies
 * them in this order: rooms removed, rooms, messages, kept messages, receipts, watermarks, sends, ended sends;
 * and keeps the rules of {@link ChatStore}: a message older than the stored one is ignored, a receipt never
 * moves backwards. Not thread-safe: the client fills it on its engine and hands it to the I/O queue whole.
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

  /**
   * A send to remove from the outbox, named as the service's idempotency names it within one user's sends: its
   * room and its {@code clientMessageId} (the same id in two rooms is two sends).
   */
  public static final class EndedSend {
    private final @Nullable String roomId;
    private final String clientMessageId;

    EndedSend(@Nullable String roomId, String clientMessageId) {
      if (clientMessageId == null) throw new NullPointerException("clientMessageId == null");
      this.roomId = roomId;
      this.clientMessageId = clientMessageId;
    }

    /** @return the send's room; null when every send of {@link #clientMessageId()} ends, whatever its room */
    public @Nullable String roomId() {
      return roomId;
    }

    /** @return the send's idempotency key within its room */
    public String clientMessageId() {
      return clientMessageId;
    }

    @Override
    public String toString() {
      return "EndedSend{" + clientMessageId + " to " + roomId + "}";
    }
  }

  private final List<String> removedRooms = new ArrayList<>(0);
  private final Map<String, Room> rooms = new LinkedHashMap<>();
  private final Map<String, Message> messages = new LinkedHashMap<>();
  private final Map<String, Message> keptMessages = new LinkedHashMap<>();
  private final Map<String, Receipt> receipts = new LinkedHashMap<>();
  private final Map<String, Watermark> watermarks = new LinkedHashMap<>();
  private final List<StoredSend> sends = new ArrayList<>(0);
  private final List<EndedSend> endedSends = new ArrayList<>(0);
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
   * Stores {@code message}, delivered to the app as an event (by recovery or live), unless a revision at least as
   * new is stored (in this write or before). Its revision counts as delivered: after a restart it is among
   * {@link StoredState#changedAbove()} when above its room's revision watermark.
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
   * Keeps {@code message}, read from the service (a page of history, a message a count needed) and given to the
   * app by no event, for the store's reads only, unless a revision at least as new is stored (in this write or
   * before). It does not count as delivered: what the store kept this way stays out of
   * {@link StoredState#changedAbove()}, so recovery delivers its changes as events after a restart.
   *
   * @param message the message
   * @return this
   */
  public StoreWrite keptMessage(Message message) {
    Message known = keptMessages.get(message.id());
    if (known == null || message.rev() > known.rev()) keptMessages.put(message.id(), message);
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
   * @param roomId the send's room
   * @param clientMessageId the send's idempotency key within its room
   * @return this
   */
  public StoreWrite endSend(String roomId, String clientMessageId) {
    if (roomId == null) throw new NullPointerException("roomId == null");
    endedSends.add(new EndedSend(roomId, clientMessageId));
    return this;
  }

  /**
   * Removes every send of {@code clientMessageId} from the outbox, whatever its room.
   *
   * @param clientMessageId the sends' idempotency key
   * @return this
   * @deprecated a {@code clientMessageId} is unique within a room only: use {@link #endSend(String, String)}
   */
  @Deprecated
  public StoreWrite endSend(String clientMessageId) {
    endedSends.add(new EndedSend(null, clientMessageId));
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

  /** @return the messages delivered as events to store, each in the latest revision this write has of it */
  public List<Message> messages() {
    return Collections.unmodifiableList(new ArrayList<>(messages.values()));
  }

  /**
   * Returns the messages kept from the service's answers, which no event delivered ({@link #keptMessage}); a store
   * applies them after {@link #messages()}.
   *
   * @return the messages to keep for reads only, each in the latest revision this write has of it
   */
  public List<Message> keptMessages() {
    return Collections.unmodifiableList(new ArrayList<>(keptMessages.values()));
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

  /**
   * Returns the ids of the sends to remove, without their rooms.
   *
   * @return the {@code clientMessageId}s of {@link #endedSendsInRooms()}
   * @deprecated a {@code clientMessageId} is unique within a room only: use {@link #endedSendsInRooms()}
   */
  @Deprecated
  public List<String> endedSends() {
    List<String> ids = new ArrayList<>(endedSends.size());
    for (EndedSend e : endedSends) ids.add(e.clientMessageId());
    return Collections.unmodifiableList(ids);
  }

  /** @return the sends to remove, each by room and {@code clientMessageId}, in the order ended */
  public List<EndedSend> endedSendsInRooms() {
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
    return removedRooms.isEmpty() && rooms.isEmpty() && messages.isEmpty() && keptMessages.isEmpty()
        && receipts.isEmpty()
        && watermarks.isEmpty() && sends.isEmpty() && endedSends.isEmpty() && pendingReads.isEmpty()
        && sentReads.isEmpty();
  }

  @Override
  public String toString() {
    return "StoreWrite{rooms=" + rooms.size() + ", removed=" + removedRooms.size() + ", messages=" + messages.size()
        + ", kept=" + keptMessages.size() + ", receipts=" + receipts.size() + ", watermarks=" + watermarks.size()
        + ", sends=" + sends.size() + ", ended=" + endedSends.size() + "}";
  }
}
