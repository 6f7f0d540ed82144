package dev.svc.chat.internal.util;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A serial queue of tasks over any {@link Executor}: tasks run one at a time, in submission order, whatever the
 * executor's threads. Nothing here owns a thread, so many clients share one small pool. It is the client's actor
 * (inside {@link SerialScheduler}, which adds timers) and its I/O queue ({@link #io}).
 *
 * <p>A task never runs on the thread that posts it by {@link #execute} (unless the executor is a direct one),
 * except after the task that posted it, as its follow-up, when {@link #executeHere} ran that one;
 * {@link #executeHere} runs a task there when the queue is idle. A task that throws is
 * logged and the next one runs. When the executor refuses to run the queue (an app's executor shut down while a
 * client still used it), {@link #execute} returns false for that task and every later one, as after
 * {@link #shutdown()}, and the tasks other threads queued meanwhile are dropped with it (counted in the log):
 * nothing would ever run them. The queue itself exists only while tasks wait: an idle client holds none.
 */
public final class SerialQueue {
  private final Executor executor;
  private final Log log;
  /** What the queue is, in the log: "engine" or "I/O". */
  private final String name;
  private final Runnable drain = this::drain;
  /** Tasks waiting behind the running one; null when none waits. Guarded by {@link #drain}. */
  private ArrayDeque<Runnable> queue;
  /** Whether a drain is posted or running, or {@link #executeHere} runs a task. Guarded by {@link #drain}. */
  private boolean draining;
  /**
   * The thread whose {@link #executeHere} run takes the follow-ups its tasks queue, null when none does; the
   * tasks that thread queues meanwhile are marked {@link FollowUp}. Guarded by {@link #drain}.
   */
  private Thread followUpsOf;
  private volatile boolean shutdown;
  private volatile Thread runner;

  /** Creates a queue on {@code executor}, which it never shuts down; {@code name} says what it is in the log. */
  public SerialQueue(Executor executor, String name, Log log) {
    this.executor = executor;
    this.name = name;
    this.log = log;
  }

  /**
   * Returns a client's queue for its blocking file I/O on the pool every client shares ({@link ClientThreads#io()}):
   * never on a client's actor, whose thread also carries pings, acks and other clients' work, nor on the app's
   * callback thread, so a slow disk (an fsync) delays only the work that waits for it. Being serial, what a
   * client writes, deletes and reads happens in the order it asked for; a task reports by posting to the actor.
   */
  public static SerialQueue io(Log log) {
    return new SerialQueue(ClientThreads.io(), "I/O", log);
  }

  /** Queues {@code task}; returns false if it will never run (shut down, or the executor refused the queue). */
  public boolean execute(Runnable task) {
    if (shutdown) return false;
    synchronized (drain) {
      enqueue(Thread.currentThread() == followUpsOf ? new FollowUp(task) : task);
      if (draining) return true; // the running drain takes it
      draining = true;
    }
    return post(1);
  }

  /** A task queued by a task that {@link #executeHere} ran, on that thread: its follow-up. */
  private static final class FollowUp implements Runnable {
    final Runnable task;

    FollowUp(Runnable task) {
      this.task = task;
    }

    @Override
    public void run() {
      task.run();
    }
  }

  /**
   * The most follow-ups of {@link #executeHere}'s task that the calling thread runs after it: the tasks it queued
   * itself, and those they queue. A task's own follow-ups are one or two (a send's answer, taken from the socket,
   * queues the outbox's step for it), and waking a thread for a task of microseconds costs more than the task.
   * What other threads queue meanwhile is never run there (a connect they ask for may block on a name lookup,
   * which a transport's shared reader must not), nor anything behind it, so the order holds.
   */
  static final int FOLLOW_UPS_HERE = 4;

  /**
   * Runs {@code task} now, on the calling thread, when the queue is idle (no task running or waiting); else queues
   * it as {@link #execute} does. For a thread of the client's own that hands the queue work it did not take from
   * the queue (a transport's reader): when the queue has nothing to do, running the task where it is saves waking
   * another thread, and that thread's wait for a core. Up to {@value #FOLLOW_UPS_HERE} of its follow-ups run after
   * it on the same thread while they come first in the queue; the rest go to the executor, so the calling thread
   * is soon back to its own work. Returns false if the task will never run.
   */
  public boolean executeHere(Runnable task) {
    return executeHere(task, FOLLOW_UPS_HERE);
  }

  /**
   * As {@link #executeHere(Runnable)}, but the calling thread runs {@code task} alone: for an app's thread, which
   * runs the work its own call asked for and nothing another thread queued meanwhile.
   */
  public boolean executeHereAlone(Runnable task) {
    return executeHere(task, 0);
  }

  private boolean executeHere(Runnable task, int mostFollowUps) {
    if (shutdown) return false;
    synchronized (drain) {
      if (draining) {
        enqueue(task);
        return true;
      }
      draining = true; // the queue is this thread's until the task ends: tasks posted meanwhile wait behind it
      if (mostFollowUps > 0) followUpsOf = Thread.currentThread();
    }
    run(task);
    for (int followUps = 0; ; followUps++) {
      Runnable next;
      synchronized (drain) {
        if (queue == null || queue.isEmpty()) {
          queue = null;
          draining = false;
          followUpsOf = null;
          return true;
        }
        if (followUps == mostFollowUps || !(queue.peek() instanceof FollowUp)) {
          followUpsOf = null;
          break;
        }
        next = ((FollowUp) queue.poll()).task;
      }
      run(next);
    }
    post(0); // refused: the queued tasks are dropped and logged; this task ran
    return true;
  }

  /** Adds {@code task} behind the waiting ones; holding {@link #drain}. */
  private void enqueue(Runnable task) {
    if (queue == null) queue = new ArrayDeque<>(4);
    queue.add(task);
  }

  /**
   * Hands the drain to the executor ({@link #draining} is set); false when it refused it. {@code refused} of the
   * queued tasks are the caller's own, refused to it: the others are reported as dropped.
   */
  private boolean post(int refused) {
    try {
      executor.execute(drain);
      return true;
    } catch (RejectedExecutionException e) {
      int dropped;
      synchronized (drain) {
        dropped = queue == null ? 0 : Math.max(0, queue.size() - refused);
        queue = null;
        draining = false;
      }
      String droppedNote = dropped == 0 ? "" : "; " + dropped + " other queued task(s) dropped";
      if (!shutdown) {
        shutdown = true;
        log.error("the " + name + " executor refused the client's work (was it shut down while the client was in"
            + " use?); the client stops working: close it" + droppedNote, e);
      } else if (dropped > 0) {
        log.warn("the " + name + " executor refused the client's work" + droppedNote, e);
      }
      return false;
    }
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (drain) {
        next = queue == null ? null : queue.poll();
        if (next == null) {
          queue = null; // an idle client holds no queue
          draining = false;
          return;
        }
      }
      run(next);
    }
  }

  private void run(Runnable task) {
    if (shutdown) return; // what was queued before shutdown() is dropped
    Thread previous = runner;
    runner = Thread.currentThread();
    try {
      task.run();
    } catch (Throwable t) {
      // a bug in a task must not stop the queue and strand every pending future
      log.error("unexpected error on the client's " + name + " queue", t);
    } finally {
      runner = previous;
    }
  }

  /** Returns how many tasks wait to run. */
  public int backlog() {
    synchronized (drain) {
      return queue == null ? 0 : queue.size();
    }
  }

  /** Returns whether the calling thread runs one of this queue's tasks now. */
  public boolean inQueue() {
    return Thread.currentThread() == runner;
  }

  /** Refuses every later task; what is queued and not yet running is dropped. */
  public void shutdown() {
    shutdown = true;
  }

  /** Returns whether the queue takes no more tasks. */
  public boolean isShutdown() {
    return shutdown;
  }
}
