package dev.svc.chat.session;

import java.util.ArrayDeque;

import dev.svc.chat.LogLevel;

/**
 * The calls a {@link SessionManager} makes on its client (connect, disconnect, token update, reconnect), run
 * one at a time in the order the manager decided them, and never under the manager's lock.
 *
 * <p>The manager adds a call while it holds its lock, at the moment it decides it (so a {@code stop()} that
 * decides after a fetch decided to connect has its disconnect run after that connect), and calls
 * {@link #drain()} once it let go of the lock. Whoever drains runs every queued call; a thread that finds
 * another one draining returns at once, its call runs on that thread next. So a fetch completing on an HTTP
 * thread while the app stops on its main thread can never leave the client connected: the disconnect is
 * always the last call.
 */
final class ClientCalls {
  private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
  private final SessionLog log;
  /** Whether a thread is running a call; guarded by this. */
  private boolean draining;

  ClientCalls(SessionLog log) {
    this.log = log;
  }

  /** Queues {@code call}; called while the manager holds its lock, so the order is the order of decisions. */
  synchronized void add(Runnable call) {
    queue.add(call);
  }

  /** Runs the queued calls unless another thread is running them; call without the manager's lock. */
  void drain() {
    while (true) {
      Runnable call;
      synchronized (this) {
        if (draining) return;
        call = queue.poll();
        if (call == null) return;
        draining = true;
      }
      try {
        call.run();
      } catch (RuntimeException e) {
        log.log(LogLevel.WARN, "a call on the chat client failed", e);
      } finally {
        synchronized (this) {
          draining = false;
        }
      }
    }
  }
}
