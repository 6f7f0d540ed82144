package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * A report that the client is recovering, or has recovered, what it missed while it was not connected,
 * delivered to handlers of {@link EventType#RECOVERY}. The missed deliveries themselves come through the
 * usual events ({@link EventType#NEW_MESSAGE}, {@link EventType#MESSAGE_UPDATED},
 * {@link EventType#ROOM_READ}), each once and in order.
 *
 * <p>Two scopes:
 * <ul>
 *   <li>A reconnect's whole recovery ({@link #roomId()} null): {@link Phase#STARTED} when a connection
 *       is back after a loss, {@link Phase#FINISHED} once every room has caught up, with the totals.
 *   <li>One room's back-fill ({@link #roomId()} set): every {@link EventType#NEW_MESSAGE} of that room
 *       delivered between its {@link Phase#STARTED} and its {@link Phase#FINISHED} was recovered rather
 *       than received live. Live messages arriving meanwhile are held and delivered after it, in order.
 * </ul>
 */
public final class RecoveryEvent {
  /** Where the recovery is. */
  public enum Phase {
    /** Recovery began. */
    STARTED,
    /** Recovery is complete; the counts say what it delivered. */
    FINISHED
  }

  private final Phase phase;
  private final @Nullable String roomId;
  private final int rooms;
  private final int messages;
  private final int updates;
  private final int receipts;

  /**
   * Creates a report.
   *
   * @param phase where the recovery is
   * @param roomId the room of a room back-fill, or null for a reconnect's whole recovery
   * @param rooms how many rooms were back-filled (0 for a room back-fill and when started)
   * @param messages how many missed messages were delivered (0 when started)
   * @param updates how many missed edits, reactions and deletes were delivered (0 when started)
   * @param receipts how many missed read receipts were delivered (0 when started)
   */
  public RecoveryEvent(Phase phase, @Nullable String roomId, int rooms, int messages, int updates, int receipts) {
    if (phase == null) throw new NullPointerException("phase == null");
    this.phase = phase;
    this.roomId = roomId;
    this.rooms = rooms;
    this.messages = messages;
    this.updates = updates;
    this.receipts = receipts;
  }

  /**
   * Returns where the recovery is.
   *
   * @return the phase
   */
  public Phase phase() {
    return phase;
  }

  /**
   * Returns the room of a room back-fill.
   *
   * @return the room id, or null for a reconnect's whole recovery
   */
  public @Nullable String roomId() {
    return roomId;
  }

  /**
   * Returns how many rooms needed a back-fill (a reconnect's recovery, when finished).
   *
   * @return the room count
   */
  public int rooms() {
    return rooms;
  }

  /**
   * Returns how many missed messages were delivered as {@link EventType#NEW_MESSAGE}.
   *
   * @return the message count
   */
  public int messages() {
    return messages;
  }

  /**
   * Returns how many missed changes were delivered as {@link EventType#MESSAGE_UPDATED}.
   *
   * @return the update count
   */
  public int updates() {
    return updates;
  }

  /**
   * Returns how many missed receipts were delivered as {@link EventType#ROOM_READ}.
   *
   * @return the receipt count
   */
  public int receipts() {
    return receipts;
  }

  @Override
  public String toString() {
    return "RecoveryEvent{" + phase + (roomId == null ? "" : ", room=" + roomId) + ", rooms=" + rooms
        + ", messages=" + messages + ", updates=" + updates + ", receipts=" + receipts + "}";
  }
}
