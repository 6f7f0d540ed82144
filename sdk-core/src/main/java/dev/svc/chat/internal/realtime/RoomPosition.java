package dev.svc.chat.internal.realtime;

/** One room's position in a CONNECT answer: its last message's {@code seq} and its {@code rev}. Immutable. */
public final class RoomPosition {
  public final String roomId;
  public final long seq;
  public final long rev;

  public RoomPosition(String roomId, long seq, long rev) {
    this.roomId = roomId;
    this.seq = seq;
    this.rev = rev;
  }

  @Override
  public String toString() {
    return roomId + "@" + seq + "/" + rev;
  }
}
