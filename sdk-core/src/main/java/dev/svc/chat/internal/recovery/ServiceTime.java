package dev.svc.chat.internal.recovery;

/**
 * The service's time of the latest thing the client saw from it: a CONNECT answer's {@code at}, a live message's
 * {@code createdAt}. A room the client first hears of after a loss delivers what was created from then on, by
 * the service's own clock; the client's clock is never compared with it. Journaled, so that a restart knows it.
 * Confined to the actor.
 */
final class ServiceTime {
  private long latest;
  private RecoveryJournal journal = RecoveryJournal.NONE;

  void journal(RecoveryJournal journal) {
    this.journal = journal;
  }

  /** The service showed time {@code at} (epoch milliseconds; 0: not known). */
  void saw(long at) {
    if (at <= latest) return;
    latest = at;
    journal.serviceTime(at);
  }

  /** Returns the latest service time seen; 0 when none. */
  long latest() {
    return latest;
  }
}
