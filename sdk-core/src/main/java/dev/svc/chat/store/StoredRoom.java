package dev.svc.chat.store;

import dev.svc.chat.Room;

/**
 * A room as stored, with its recovery watermarks: the highest {@code seq} delivered to the app with every one
 * below it delivered too, and the revision below which every change was applied.
 */
public final class StoredRoom {
  private final Room room;
  private final long seq;
  private final long rev;

  /**
   * Creates a stored room.
   *
   * @param room the room as last listed or seen
   * @param seq the delivered watermark ({@code -1}: not known yet)
   * @param rev the revision watermark ({@code -1}: not known yet)
   */
  public StoredRoom(Room room, long seq, long rev) {
    if (room == null) throw new NullPointerException("room == null");
    this.room = room;
    this.seq = seq;
    this.rev = rev;
  }

  /**
   * Returns the room.
   *
   * @return the room as last listed or seen
   */
  public Room room() {
    return room;
  }

  /**
   * Returns the highest {@code seq} delivered, with every one below it delivered too.
   *
   * @return the watermark, or -1 when not known
   */
  public long seq() {
    return seq;
  }

  /**
   * Returns the revision below which (and at which) every change of the room was applied.
   *
   * @return the watermark, or -1 when not known
   */
  public long rev() {
    return rev;
  }

  @Override
  public String toString() {
    return "StoredRoom{" + room.id() + ", seq=" + seq + ", rev=" + rev + "}";
  }
}
