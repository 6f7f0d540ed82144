package dev.svc.chat.internal.util;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

import dev.svc.chat.SerialExecutor;

/**
 * Runs user callbacks one at a time, on the configured executor (which may itself be multi-threaded): in
 * submission order for each submitting thread. While the actor gathers a batch ({@link #beginBatch}), a
 * callback another thread submits (a REST future completed on an OkHttp thread) may run before the batch's
 * earlier ones: those submissions race anyway, and the order among the actor's own events is kept. Every future the client returns is completed here, so user continuations never run on
 * a socket or OkHttp thread. A callback that throws is logged and the next one runs.
 */
public final class CallbackExecutor implements Executor {
  private final SerialExecutor serial;
  private final Log log;
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
