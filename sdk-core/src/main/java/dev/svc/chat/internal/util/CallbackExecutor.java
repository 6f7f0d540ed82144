package dev.svc.chat.internal.util;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BiConsumer;

import dev.svc.chat.SerialExecutor;

/**
 * Runs user callbacks one at a time, on the configured executor (which may itself be multi-threaded): in
 * submission order for each submitting thread. While the actor gathers a batch ({@link #beginBatch}), a
 * callback another thread submits (a REST future completed on an OkHttp thread) may run before the batch's
 * earlier ones: those submissions race anyway, and the order among the actor's own events is kept. A callback
 * that throws is logged and the next one runs.
 *
 * <p>This is the public boundary only: every future the client returns is a {@link #relay} of an internal one,
 * completed here, so user continuations never run on a socket, OkHttp or engine thread. The SDK's own work
 * never waits here (its futures complete where the answer is, and its continuations post to the actor), so a
 * paused or blocked app thread delays the app's callbacks, never the client. A handler that blocks on a future
 * the client returned ({@code get} or {@code join} on this executor's thread) takes the outcome as soon as the
 * SDK has it, instead of waiting for its own turn behind itself: see {@link #relay}.
 *
 * <p>When the app's executor refuses work (it was shut down while a client still used it), the callbacks are
 * dropped with a logged error ({@link SerialExecutor}): app code never runs on the SDK's threads instead.
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
  /**
   * The callback executor whose task the current thread runs, or null: what lets a handler's {@code get} on a
   * client's future see that it would wait behind itself. Per thread, since the lane ahead may run on another
   * thread of the app's executor at the same time as the ordinary lane.
   */
  private static final ThreadLocal<CallbackExecutor> RUNNING = new ThreadLocal<>();
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
  private final Runnable runAhead = new Tracked(this::runAhead);
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
      serial.execute(new Tracked(task));
    }
  }

  /** A task that marks its thread as this executor's while it runs. */
  private final class Tracked implements Runnable {
    private final Runnable task;

    Tracked(Runnable task) {
      this.task = task;
    }

    @Override
    public void run() {
      CallbackExecutor previous = RUNNING.get();
      RUNNING.set(CallbackExecutor.this);
      try {
        task.run();
      } finally {
        if (previous == null) {
          RUNNING.remove();
        } else {
          RUNNING.set(previous);
        }
      }
    }
  }

  /** Returns whether the calling thread runs one of this executor's tasks now. */
  boolean onCallbackThread() {
    return RUNNING.get() == this;
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
    serial.execute(new Tracked(new Runnable() {
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
    }));
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

  /**
   * Returns the app's future of {@code source} (an internal future, completed on any thread): completed on this
   * executor with its outcome. Its {@code get} and {@code join} called on this executor's thread (a handler that
   * blocks on a client's future) wait for {@code source} and complete it in place, since the completion queued
   * behind the caller could never run; on any other thread they wait for the completion here. A future derived
   * from it ({@code thenApply}, ...) is a plain one: a handler blocking on that waits for its own turn.
   */
  public <T> CompletableFuture<T> relay(CompletableFuture<T> source) {
    final BoundaryFuture<T> result = new BoundaryFuture<>(source);
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

  /** Returns the app's future of {@code value}, completed on this executor. */
  public <T> CompletableFuture<T> completed(T value) {
    return relay(CompletableFuture.completedFuture(value));
  }

  /** Returns the app's future of {@code error}, failed on this executor. */
  public <T> CompletableFuture<T> failed(Throwable error) {
    CompletableFuture<T> source = new CompletableFuture<>();
    source.completeExceptionally(error);
    return relay(source);
  }

  /** A future the client returns: see {@link #relay}. */
  private final class BoundaryFuture<T> extends CompletableFuture<T> {
    private final CompletableFuture<T> source;

    BoundaryFuture(CompletableFuture<T> source) {
      this.source = source;
    }

    /** Whether a wait on this thread would wait behind itself: then it waits for the source instead. */
    private boolean waitsForSource() {
      return !isDone() && onCallbackThread();
    }

    /** Completes this future in place with the source's outcome (the source is done). */
    private void adoptSource() {
      source.whenComplete(new BiConsumer<T, Throwable>() {
        @Override
        public void accept(T value, Throwable error) {
          if (error == null) {
            complete(value);
          } else {
            completeExceptionally(unwrap(error));
          }
        }
      });
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
      if (waitsForSource()) {
        try {
          source.get();
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
          // the outcome is adopted below
        }
        adoptSource();
      }
      return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
      if (waitsForSource()) {
        try {
          source.get(timeout, unit);
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
          // the outcome is adopted below
        }
        adoptSource();
      }
      return super.get(timeout, unit);
    }

    @Override
    public T join() {
      if (waitsForSource()) {
        try {
          source.join();
        } catch (RuntimeException e) {
          // the outcome is adopted below
        }
        adoptSource();
      }
      return super.join();
    }
  }

  /** Returns the cause of a {@link CompletionException}, or the error itself. */
  public static Throwable unwrap(Throwable error) {
    while (error instanceof CompletionException && error.getCause() != null) error = error.getCause();
    return error;
  }
}
