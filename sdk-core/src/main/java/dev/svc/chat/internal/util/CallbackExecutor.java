package dev.svc.chat.internal.util;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BiConsumer;

import dev.svc.chat.SerialExecutor;

/**
 * Runs user callbacks one at a time, on the configured executor (which may itself be multi-threaded): in
 * submission order for each submitting thread. While the actor gathers a batch ({@link #beginBatch}), a
 * callback another thread submits (a REST future completed on an OkHttp thread) may run before the batch's
 * earlier ones: those submissions race anyway, and the order among the actor's own events is kept. Every future the client returns is completed here, so user continuations never run on
 * a socket or OkHttp thread. A callback that throws is logged and the next one runs.
 *
 * <p>A second lane, {@link #executeAhead}, runs callbacks that must not wait behind a backlog (connection state
 * changes): in order among themselves, one at a time, as a task of their own on the executor and, before it
 * gets its turn, ahead of the next callback of the ordinary lane ({@link #runAhead}). So a callback of the
 * ordinary lane never runs before one submitted ahead earlier; one submitted ahead may overtake ordinary ones
 * submitted before it, and, on an executor of several threads, run while an ordinary one is running.
 */
public final class CallbackExecutor implements Executor {
  private final SerialExecutor serial;
  private final Log log;
  /** The thread whose callbacks are gathered into one batch ({@link #beginBatch}), or null. */
  private volatile Thread batchOwner;
  /** A batch larger than this leaves a new small list behind, not the burst-sized one (as SocketReader). */
  private static final int SMALL_BATCH = 16;
  /** The callbacks of the open batch; only {@link #batchOwner} touches it. */
  private ArrayList<Runnable> batch = new ArrayList<>();
  /** The executor under {@link #serial}, which also runs the lane ahead. */
  private final Executor executor;
  /** The callbacks submitted ahead and not yet run, in order; run by one thread at a time. */
  private final ConcurrentLinkedQueue<Runnable> ahead = new ConcurrentLinkedQueue<>();
  /** How many callbacks wait in {@link #ahead}: read (one volatile read) before every ordinary callback. */
  private volatile int aheadWaiting;
  private static final AtomicIntegerFieldUpdater<CallbackExecutor> AHEAD_WAITING =
      AtomicIntegerFieldUpdater.newUpdater(CallbackExecutor.class, "aheadWaiting");
  /** Held while the lane ahead runs: an ordinary callback waits for a state handler under way. */
  private final Object aheadLock = new Object();
  private final Runnable runAhead = this::runAhead;
  /** The thread running the lane ahead, or null: a callback it runs does not run the lane again. */
  private volatile Thread aheadRunner;

  private CallbackExecutor(Executor executor, Log log) {
    this.executor = executor;
    this.serial = SerialExecutor.on(executor, log.logger());
    this.log = log;
  }

  /** Returns a callback executor on the given executor, which it never shuts down. */
  public static CallbackExecutor on(Executor executor, Log log) {
    return new CallbackExecutor(executor, log);
  }

  /**
   * Runs {@code task} ahead of the ordinary callbacks queued (see the class comment), never inside a batch:
   * how connection state changes reach the app while a slow handler holds a backlog of events.
   */
  public void executeAhead(Runnable task) {
    ahead.add(task);
    AHEAD_WAITING.incrementAndGet(this);
    try {
      executor.execute(runAhead);
    } catch (RejectedExecutionException e) {
      serial.execute(runAhead); // the executor refuses: the ordinary lane's policy applies
    }
  }

  /**
   * Runs the callbacks submitted ahead and not yet run, in order, on the calling thread; returns at once when
   * there are none. Every ordinary callback calls it before it runs, so none overtakes one submitted ahead.
   */
  public void runAhead() {
    if (aheadWaiting == 0 || aheadRunner == Thread.currentThread()) return;
    synchronized (aheadLock) {
      aheadRunner = Thread.currentThread();
      try {
        Runnable next;
        while ((next = ahead.poll()) != null) {
          AHEAD_WAITING.decrementAndGet(this);
          try {
            next.run();
          } catch (Throwable t) {
            log.warn("a callback threw; delivery goes on", t);
          }
        }
      } finally {
        aheadRunner = null;
      }
    }
  }

  @Override
  public void execute(Runnable task) {
    if (batchOwner == Thread.currentThread()) {
      batch.add(task);
    } else {
      serial.execute(task);
    }
  }

  /**
   * Gathers the callbacks the calling thread submits, until {@link #endBatch}, into one task: how the actor
   * hands a batch of inbound events over (one hand-off per batch, not per event). Other threads' callbacks
   * are not held meanwhile.
   */
  public void beginBatch() {
    batchOwner = Thread.currentThread();
  }

  /** Submits the callbacks gathered since {@link #beginBatch}, in order, as one task. */
  public void endBatch() {
    if (batchOwner != Thread.currentThread()) return;
    batchOwner = null;
    if (batch.isEmpty()) return;
    final Runnable[] tasks = batch.toArray(new Runnable[0]);
    if (tasks.length > SMALL_BATCH) {
      batch = new ArrayList<>(); // a burst's backing array is not kept per client for ever
    } else {
      batch.clear();
    }
    serial.execute(new Runnable() {
      @Override
      public void run() {
        for (Runnable task : tasks) {
          try {
            task.run();
          } catch (Throwable t) {
            log.warn("a callback threw; delivery goes on", t);
          }
        }
      }
    });
  }

  /** Returns how many callbacks wait to run (for backpressure). */
  public int backlog() {
    return serial.backlog();
  }

  /** Completes {@code future} with {@code value} on this executor. */
  public <T> void complete(final CompletableFuture<T> future, final T value) {
    execute(new Runnable() {
      @Override
      public void run() {
        runAhead();
        future.complete(value);
      }
    });
  }

  /** Fails {@code future} with {@code error} on this executor. */
  public <T> void fail(final CompletableFuture<T> future, final Throwable error) {
    execute(new Runnable() {
      @Override
      public void run() {
        runAhead();
        future.completeExceptionally(error);
      }
    });
  }

  /** Returns a future completed on this executor when {@code source} completes, with its outcome. */
  public <T> CompletableFuture<T> relay(CompletableFuture<T> source) {
    final CompletableFuture<T> result = new CompletableFuture<>();
    source.whenComplete(new BiConsumer<T, Throwable>() {
      @Override
      public void accept(T value, Throwable error) {
        if (error == null) {
          complete(result, value);
        } else {
          fail(result, unwrap(error));
        }
      }
    });
    return result;
  }

  /** Returns the cause of a {@link CompletionException}, or the error itself. */
  public static Throwable unwrap(Throwable error) {
    while (error instanceof CompletionException && error.getCause() != null) error = error.getCause();
    return error;
  }
}
