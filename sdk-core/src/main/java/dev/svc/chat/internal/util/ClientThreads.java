package dev.svc.chat.internal.util;

/**
 * The threads clients share by default, instead of threads of their own: one small pool runs the engines (each
 * client's actor is a serial queue on it, see {@link SerialScheduler}), another runs user callbacks (each
 * client's {@link CallbackExecutor} is a serial queue on it), a third of two threads runs blocking file I/O
 * (each client's {@link SerialQueue}), a fourth runs the apps' {@code TokenRefresher}s. The engines' and the
 * callbacks' are sized to the cores; all have daemon threads that end when idle, and belong to no client:
 * {@code close()} ends the client's queues, and the threads end by themselves once no client uses them.
 *
 * <p>Why separate pools: engine tasks never block, while a handler or a disk flush may. A blocked handler holds
 * a callback thread and a slow disk an I/O thread, but never an engine's, so connections, heartbeats and sends
 * of every client go on; the other clients' callbacks (or files) wait at most about a second for the pool to
 * add a thread (see {@link SharedPool}). Order is per
 * client: one client's callbacks run one at a time in order, whatever thread runs them.
 *
 * <p>Why the refreshers have threads of their own: a handler may block on a future of its own client (on the
 * callback executor), and that future may wait for a token refresh. Run on the app's callback executor, the
 * refresh would wait behind the handler that waits for it. A refresher may block (a synchronous HTTP call), so
 * it runs neither there nor on the engine's threads, nor among the file I/O that delivery waits for.
 */
public final class ClientThreads {
  /** How long an idle shared thread lives. */
  static final long KEEP_ALIVE_MILLIS = 3_000;
  /** How long queued work waits behind threads that finish nothing before the pool grows by one. */
  static final long STALL_MILLIS = 1_000;
  /** How many threads a pool may grow to when its tasks block. */
  static final int MAX_THREADS = 64;

  private static final int SIZE = Math.max(2, Runtime.getRuntime().availableProcessors());
  private static final SharedPool ENGINE = new SharedPool("svc-chat-engine", SIZE, MAX_THREADS,
      KEEP_ALIVE_MILLIS, STALL_MILLIS, SharedTimer.get());
  /** Threads for blocking file I/O: few, since a disk gains little from more writers at once. */
  private static final int IO_SIZE = 2;
  private static final SharedPool IO = new SharedPool("svc-chat-io", IO_SIZE, MAX_THREADS,
      KEEP_ALIVE_MILLIS, STALL_MILLIS, SharedTimer.get());
  /** Threads for the apps' token refreshers: a refresh is rare and single-flight per client. */
  private static final SharedPool REFRESHES = new SharedPool("svc-chat-refresh", SIZE, MAX_THREADS,
      KEEP_ALIVE_MILLIS, STALL_MILLIS, SharedTimer.get());
  private static final SharedPool CALLBACKS = new SharedPool("svc-chat-callbacks", SIZE, MAX_THREADS,
      KEEP_ALIVE_MILLIS, STALL_MILLIS, SharedTimer.get());

  private ClientThreads() {
  }

  /** Returns the pool that runs the clients' engines, recovery and outboxes. */
  public static SharedPool engine() {
    return ENGINE;
  }

  /** Returns the pool that runs the clients' file I/O, each client's through an {@link SerialQueue} of its own. */
  public static SharedPool io() {
    return IO;
  }

  /** Returns the pool that runs the apps' {@code TokenRefresher}s (never the app's callback executor). */
  public static SharedPool refreshes() {
    return REFRESHES;
  }

  /** Returns the pool that runs the clients' callbacks. */
  public static SharedPool callbacks() {
    return CALLBACKS;
  }
}
