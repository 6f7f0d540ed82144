package dev.svc.chat.internal.recovery;

/**
 * What a room's back-fill is asked to read. Immutable; {@link RoomBackfill#again} merges a later ask into the
 * pass under way.
 */
final class Ask {
  /** Whether messages and changes are read (false: the room is up to date, only its receipts are read). */
  final boolean messages;
  /** After a loss: deliver receipts newer than those known, and of users not known those read from this time. */
  final long receiptsSince;
  /** A room the client holds nothing of: deliver its messages created from this service time on (0: none). */
  final long historySince;
  /** The history is read below this seq (0: from the newest message). */
  final long historyBelow;
  /** The revision the changes of a room read from its history start from (-1: its history's highest). */
  final long baseRev;

  private Ask(boolean messages, long receiptsSince, long historySince, long historyBelow, long baseRev) {
    this.messages = messages;
    this.receiptsSince = receiptsSince;
    this.historySince = historySince;
    this.historyBelow = historyBelow;
    this.baseRev = baseRev;
  }

  /** Reads the messages after the ledger's seq and the changes after its watermark. */
  static Ask messages() {
    return new Ask(true, 0, 0, 0, -1);
  }

  /** Reads nothing but, with {@link #withReceipts}, the receipts. */
  static Ask receiptsOnly() {
    return new Ask(false, 0, 0, 0, -1);
  }

  /**
   * Reads the history of a room the client holds nothing of: its messages created from service time
   * {@code since} below seq {@code below} (0: the newest), then on as {@link #messages}, changes from
   * {@code baseRev}.
   */
  static Ask history(long since, long below, long baseRev) {
    return new Ask(true, 0, since, below, baseRev);
  }

  /** Returns this ask with the receipts read too when {@code afterLoss}. */
  Ask withReceipts(boolean afterLoss) {
    if (!afterLoss) return this;
    return new Ask(messages, historySinceOrStart(), historySince, historyBelow, baseRev);
  }

  private long historySinceOrStart() {
    return historySince > 0 ? historySince : 1;
  }
}
