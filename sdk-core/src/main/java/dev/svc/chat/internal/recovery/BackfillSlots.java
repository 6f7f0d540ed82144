package dev.svc.chat.internal.recovery;

import java.util.ArrayDeque;

/**
 * The room back-fills allowed to run at once, and those waiting their turn (first come, first served), so that
 * a reconnect of a client in many rooms does not send a burst of reads. A back-fill gives its slot back when it
 * finishes, whatever made it finish. Confined to the actor.
 */
final class BackfillSlots {
  private final int max;
  private final ArrayDeque<RoomBackfill> waiting = new ArrayDeque<>(1); // small: most clients never queue one
  private int running;

  BackfillSlots(int max) {
    this.max = max;
  }

  /** Starts {@code b} now if a slot is free, else queues it. */
  void submit(RoomBackfill b) {
    if (running < max) {
      running++;
      b.start();
    } else {
      waiting.add(b);
    }
  }

  /** {@code b}, which held a slot, finished: the next waiting back-fill starts. */
  void release() {
    running--;
    while (running < max && !waiting.isEmpty()) {
      RoomBackfill next = waiting.poll();
      if (next.cancelled) continue;
      running++;
      next.start();
    }
  }

  /** Forgets the waiting back-fills (the client closed). */
  void clear() {
    waiting.clear();
  }

  /** Returns the back-fills running (tests, reports). */
  int running() {
    return running;
  }
}
