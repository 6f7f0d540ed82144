package dev.svc.chat.session;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The session manager's own copy of the client's callback executor (the core's is internal to it). Runs user callbacks one at a time, in submission order, on the configured executor (which may itself be
 * multi-threaded). Every future the client returns is completed here, so user continuations never run on
 * a socket or OkHttp thread. A callback that throws is logged and the next one runs.
 */
final class SessionCallbacks implements Executor {
  private final Executor delegate;
  private final ExecutorService owned;
  private final SessionLog log;
  private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
  private boolean draining;
  private final Runnable drain = new Runnable() {
    @Override
    public void run() {
      drainQueue();
    }
  };

  private SessionCallbacks(Executor delegate, ExecutorService owned, SessionLog log) {
    this.delegate = delegate;
    this.owned = owned;
    this.log = log;
  }

  /** Returns a callback executor on the given executor, which it never shuts down. */
  static SessionCallbacks on(Executor executor, SessionLog log) {
    return new SessionCallbacks(executor, null, log);
  }

  /** Returns a callback executor that owns one daemon thread named {@code threadName}. */
  static SessionCallbacks ownThread(String threadName, SessionLog log) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS,
        new LinkedBlockingQueue<Runnable>(), new ThreadFactory() {
          @Override
          public Thread newThread(Runnable r) {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
          }
        });
    pool.allowCoreThreadTimeOut(true);
    return new SessionCallbacks(pool, pool, log);
  }

  @Override
  public void execute(Runnable task) {
    synchronized (queue) {
      queue.add(task);
      if (draining) return;
      draining = true;
    }
    try {
      delegate.execute(drain);
    } catch (RejectedExecutionException e) {
      // the executor was shut down (after close()): run here rather than lose a completion
      drainQueue();
    }
  }

  private void drainQueue() {
    while (true) {
      Runnable next;
      synchronized (queue) {
        next = queue.poll();
        if (next == null) {
          draining = false;
          return;
        }
      }
      try {
        next.run();
      } catch (Throwable t) {
        log.warn("a callback threw; delivery goes on", t);
      }
    }
  }

  /** Returns how many callbacks wait to run (for backpressure). */
  public int backlog() {
    synchronized (queue) {
      return queue.size();
    }
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
  static Throwable unwrap(Throwable error) {
    while (error instanceof CompletionException && error.getCause() != null) error = error.getCause();
    return error;
  }

  /** Shuts down the thread this executor owns, after the callbacks already queued; no-op for a given executor. */
  public void shutdown() {
    if (owned != null) owned.shutdown();
  }
}
