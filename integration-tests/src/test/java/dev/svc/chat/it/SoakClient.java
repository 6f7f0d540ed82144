package dev.svc.chat.it;

import dev.svc.chat.ChatClient;
import dev.svc.chat.LogLevel;
import dev.svc.chat.Message;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One soak client instance and what it saw, in constant memory: per room only the last {@code seq} delivered, so that
 * the soak's own bookkeeping never looks like a leak. From its first {@code NEW_MESSAGE} of a room on, each next one
 * must carry the next {@code seq}: a higher one is a loss, a lower or equal one a duplicate (or disorder).
 */
final class SoakClient {
  /** Counters shared by every instance of the run. */
  static final class Totals {
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong lost = new AtomicLong();
    final AtomicLong duplicated = new AtomicLong();
    final AtomicLong errorsLogged = new AtomicLong();
    final List<String> firstProblems = new java.util.concurrent.CopyOnWriteArrayList<>();

    void problem(String what) {
      if (firstProblems.size() < 10) firstProblems.add(what);
    }
  }

  final String userId;
  final List<String> rooms;
  final ChatClient client;
  private final Totals totals;
  /** Set once the churn closes this instance: what fails from then on is the close's doing. */
  volatile boolean closing;
  private final Map<String, Long> last = new HashMap<>(); // guarded by this

  SoakClient(String userId, List<String> rooms, ChatClient client, Totals totals) {
    this.userId = userId;
    this.rooms = rooms;
    this.client = client;
    this.totals = totals;
  }

  /** The NEW_MESSAGE handler. */
  synchronized void onNew(Message m) {
    totals.delivered.incrementAndGet();
    Long previous = last.get(m.roomId());
    if (previous != null && m.seq() != previous + 1) {
      if (m.seq() > previous + 1) {
        totals.lost.addAndGet(m.seq() - previous - 1);
        totals.problem(userId + " in " + m.roomId() + ": seq " + m.seq() + " after " + previous + " (lost)");
      } else {
        totals.duplicated.incrementAndGet();
        totals.problem(userId + " in " + m.roomId() + ": seq " + m.seq() + " after " + previous + " (duplicate)");
      }
    }
    if (previous == null || m.seq() > previous) last.put(m.roomId(), m.seq());
  }

  /** The last seq delivered of {@code roomId}, or 0. */
  synchronized long last(String roomId) {
    return last.getOrDefault(roomId, 0L);
  }

  /** The SDK's logger: an ERROR is a problem of the run (the message never holds a token). */
  void log(LogLevel level, String message, Throwable error) {
    if (level == LogLevel.ERROR) {
      totals.errorsLogged.incrementAndGet();
      totals.problem(userId + " logged ERROR " + message + (error == null ? "" : ": " + error));
    }
  }
}
