package dev.svc.chat.internal.util;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 */
public final class CallbackExecutor implements Executor {
  private final SerialExecutor serial;
  private final Log log;
  /** The thread running one of this executor's tasks now, or null. */
  private volatile Thread runner;
  /** The thread whose callbacks are gathered into one batch ({@link #beginBatch}), or null. */
  private volatile Thread batchOwner;
  /** A batch larger than this leaves a new small list behind, not the burst-sized one (as InboundQueue). */
  private static final int SMALL_BATCH = 16;
  /** The callbacks of the open batch; only {@link #batchOwner} touches it. */
  private ArrayList<Runnable> batch = new ArrayList<>();

  private CallbackExecutor(SerialExecutor serial, Log log) {
    this.serial = serial;
    this.log = log;
  }

  /** Returns a callback executor on the given executor, which it never shuts down. */
  public static CallbackExecutor on(Executor executor, Log log) {
    return new CallbackExecutor(SerialExecutor.on(executor, log.logger()), log);
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
      Thread previous = runner;
      runner = Thread.currentThread();
      try {
        task.run();
      } finally {
        runner = previous;
      }
    }
  }

  /** Returns whether the calling thread runs one of this executor's tasks now. */
  boolean onCallbackThread() {
    return runner == Thread.currentThread();
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
        future.complete(value);
      }
    });
  }

  /** Fails {@code future} with {@code error} on this executor. */
  public <T> void fail(final CompletableFuture<T> future, final Throwable error) {
    execute(new Runnable() {
      @Override
      public void run() {
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
