package dev.svc.chat.internal.util;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A serial queue for a client's blocking file I/O (the outbox's files; the offline store): tasks run one at a
 * time, in submission order, on an executor of their own, by default the small pool every client shares for
 * I/O ({@link ClientThreads#io()}). Never on a client's actor, whose thread also carries pings, acks and other
 * clients' work, and never on the app's callback thread: a slow disk (an fsync) delays only the work that waits
 * for it. A task reports its outcome by posting back to the actor.
 *
 * <p>Because the queue is serial, what one client writes, deletes and reads happens in the order it asked for.
 * A task that throws is logged and the next one runs. When the executor refuses the queue, {@link #execute}
 * returns false for that task and every later one, and the tasks other threads queued meanwhile are dropped
 * with a logged error. The queue itself exists only while tasks wait; it owns no thread.
 */
public final class IoQueue {
  private final Executor executor;
  private final Log log;
  private final Runnable drain = this::drain;
  /** Tasks waiting behind the running one; null when none waits. Guarded by {@link #drain}. */
  private ArrayDeque<Runnable> queue;
  /** Whether a drain is posted to the executor or running. Guarded by {@link #drain}. */
  private boolean draining;
  private volatile boolean refused;

  /** Creates a queue on {@code executor}, which it never shuts down. */
  public IoQueue(Executor executor, Log log) {
    this.executor = executor;
    this.log = log;
  }

  /** Returns a queue of its own on the I/O pool the clients share. */
  public static IoQueue shared(Log log) {
    return new IoQueue(ClientThreads.io(), log);
  }

  /** Queues {@code task}; returns false if it will never run (the executor refused the queue). */
  public boolean execute(Runnable task) {
    if (refused) return false;
    synchronized (drain) {
      if (queue == null) queue = new ArrayDeque<>(4);
      queue.add(task);
      if (draining) return true;
      draining = true;
    }
    try {
      executor.execute(drain);
      return true;
    } catch (RejectedExecutionException e) {
      int dropped;
      synchronized (drain) {
        dropped = queue == null ? 0 : Math.max(0, queue.size() - 1);
        queue = null;
        draining = false;
      }
      refused = true;
      log.error("the I/O executor refused the client's file work" + (dropped == 0 ? ""
          : "; " + dropped + " other queued task(s) dropped"), e);
      return false;
    }
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (drain) {
        next = queue == null ? null : queue.poll();
        if (next == null) {
          queue = null;
          draining = false;
          return;
        }
      }
      try {
        next.run();
      } catch (Throwable t) {
        log.error("unexpected error on the client's I/O queue", t);
      }
    }
  }

  /** Returns how many tasks wait to run. */
  public int backlog() {
    synchronized (drain) {
      return queue == null ? 0 : queue.size();
    }
  }
}
