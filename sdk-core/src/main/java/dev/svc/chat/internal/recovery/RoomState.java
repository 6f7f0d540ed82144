package dev.svc.chat.internal.recovery;

/**
 * Where one room's recovery stands. Every room the client knows has exactly one state, moved only by
 * {@link RoomLedger#moveTo}, which refuses a move this table does not list:
 *
 * <pre>
 * from          to            when
 * (unknown)     LIVE          a CONNECT answer's position starts it; or its first live new message (joined since)
 * (unknown)     UNSTARTED     its first live event is a change: changes are delivered, its seq is not known yet
 * (unknown)     PLACING       first seen live while a listing that will place it is under way
 * (unknown)     QUEUED        first seen in a CONNECT answer after a loss: its history since then is read
 * UNSTARTED     LIVE          its first live new message, or a position, says its seq
 * PLACING       QUEUED        the listing placed it: its history is read
 * PLACING       LIVE          the listing placed it and no service time is known: it starts at the listing
 * LIVE          QUEUED        a live message skipped a seq, a revision gap stayed open, or a position is ahead
 * LIVE, QUEUED, CATCHING_UP   LIVE   a position below what was delivered (the service went back): it starts there again
 * QUEUED        CATCHING_UP   a back-fill slot is free
 * CATCHING_UP   LIVE          the back-fill read up to the newest message and change; held messages follow
 * CATCHING_UP   GONE          the user cannot read the room any more (403, 404)
 * UNSTARTED, GONE   QUEUED    a CONNECT answer after a loss places it, or a live message after access came back
 * </pre>
 *
 * Live new messages are delivered only in {@link #LIVE}; in every other state they are held (up to
 * {@link RoomLedger#MAX_HELD}) and delivered in seq order once the room is live.
 */
enum RoomState {
  /** Delivering live events in order; {@link RoomLedger#seq} and {@link RoomLedger#rev} are exact. */
  LIVE,
  /** Only changes seen so far (a room joined since the connection); its first new message starts it. */
  UNSTARTED,
  /** Seen live while a listing is under way; the listing says where it starts. */
  PLACING,
  /** A back-fill waits for a slot; live new messages are held. */
  QUEUED,
  /** A back-fill runs; live new messages are held. */
  CATCHING_UP,
  /** The user could not read the room; kept, so that access regained reads what was missed from here. */
  GONE;

  /** Returns whether a room may move from this state to {@code next}. */
  boolean mayMoveTo(RoomState next) {
    switch (this) {
      case UNSTARTED:
        return next == LIVE || next == QUEUED;
      case PLACING:
        return next == QUEUED || next == LIVE;
      case LIVE:
        return next == LIVE || next == QUEUED;
      case QUEUED:
        return next == CATCHING_UP || next == LIVE;
      case CATCHING_UP:
        return next == LIVE || next == GONE;
      case GONE:
        return next == QUEUED;
      default:
        throw new AssertionError(this);
    }
  }

  /** Returns whether live new messages are held rather than delivered. */
  boolean holdsNewMessages() {
    return this != LIVE && this != UNSTARTED;
  }
}
