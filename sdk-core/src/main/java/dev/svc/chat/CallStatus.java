package dev.svc.chat;

/**
 * The state of a {@link Call}. Transitions: {@link #RINGING} to {@link #ACTIVE} (someone accepted),
 * {@link #DECLINED} (every other member declined) or {@link #ENDED} (the caller hung up, or nobody answered
 * in time); {@link #ACTIVE} to {@link #ENDED} (the caller hung up, or fewer than two participants remain).
 * {@link #DECLINED} and {@link #ENDED} are final.
 */
public enum CallStatus {
  /** Waiting for the other members to answer. */
  RINGING,
  /** At least one member accepted. */
  ACTIVE,
  /** Every other member declined; final. */
  DECLINED,
  /** Ended; final. {@link Call#endReason()} says why. */
  ENDED,
  /** A status a newer service sent that this SDK version does not know. */
  UNKNOWN;

  /**
   * Returns whether the call still rings or runs (one such call per room at most).
   *
   * @return true for {@link #RINGING} and {@link #ACTIVE}
   */
  public boolean isLive() {
    return this == RINGING || this == ACTIVE;
  }
}
