package dev.svc.chat.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.Message;

/**
 * What the room list needs of a stored room at start ({@link ChatStore#digest}): where the room's stored history
 * begins, its newest visible messages, and the unread messages it holds.
 */
public final class RoomDigest {
  private final long lowSeq;
  private final List<Message> recent;
  private final List<Message> unread;

  /**
   * Creates a digest.
   *
   * @param lowSeq the first seq of the room's stored history, which runs without a gap up to its watermark
   *     (the watermark plus one when none is stored)
   * @param recent the newest messages not deleted, oldest first
   * @param unread the messages above the receipt asked for, of other users, not deleted, oldest first; the newest
   *     ones when more are stored than asked for
   */
  public RoomDigest(long lowSeq, List<Message> recent, List<Message> unread) {
    this.lowSeq = lowSeq;
    this.recent = Collections.unmodifiableList(new ArrayList<>(recent));
    this.unread = Collections.unmodifiableList(new ArrayList<>(unread));
  }

  /**
   * Returns the first seq of the stored history.
   *
   * @return the seq
   */
  public long lowSeq() {
    return lowSeq;
  }

  /**
   * Returns the newest messages not deleted.
   *
   * @return oldest first
   */
  public List<Message> recent() {
    return recent;
  }

  /**
   * Returns the unread messages held.
   *
   * @return oldest first
   */
  public List<Message> unread() {
    return unread;
  }
}
