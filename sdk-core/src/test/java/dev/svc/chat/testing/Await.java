package dev.svc.chat.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waiting with deadlines instead of sleeps. */
public final class Await {
  /**
   * How long a wait lasts before it fails: generous, since a loaded machine may hold a thread back for seconds, and
   * a passing test never waits it out.
   */
  public static final Duration WAIT = Duration.ofSeconds(FakeGateway.TIMEOUT_SECONDS);
  private static final long POLL_MILLIS = 10;

  private Await() {
  }

  /** Returns the future's value, failing the test after {@link FakeGateway#TIMEOUT_SECONDS}. */
  public static <T> T value(CompletableFuture<T> future) throws Exception {
    try {
      return future.get(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("future failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("future not completed within " + FakeGateway.TIMEOUT_SECONDS + " s");
    }
  }

  /** Returns the failure of the future, asserting its type. */
  public static <E extends Throwable> E failure(CompletableFuture<?> future, Class<E> type) throws Exception {
    try {
      Object v = future.get(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      throw new AssertionError("expected " + type.getSimpleName() + " but completed with " + v);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (!type.isInstance(cause)) throw new AssertionError("expected " + type.getSimpleName() + " but got " + cause, cause);
      return type.cast(cause);
    } catch (TimeoutException e) {
      throw new AssertionError("future not completed within " + FakeGateway.TIMEOUT_SECONDS + " s");
    }
  }

  /** Polls {@code condition} until true, failing after {@link #WAIT}. */
  public static void until(String what, BooleanSupplier condition) throws InterruptedException {
    until(what, WAIT, condition, () -> "");
  }

  /** Polls {@code condition} until true, failing after {@link #WAIT} with {@code what} and {@code detail}. */
  public static void until(String what, BooleanSupplier condition, Supplier<?> detail) throws InterruptedException {
    until(what, WAIT, condition, detail);
  }

  /**
   * Polls {@code condition} until true, failing after {@code within} with {@code what} and {@code detail} (read at
   * the failure: the state the test waited on).
   */
  public static void until(String what, Duration within, BooleanSupplier condition, Supplier<?> detail)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        String more = String.valueOf(detail.get());
        fail("timed out after " + within.getSeconds() + " s waiting for " + what + (more.isEmpty() ? "" : ": " + more));
      }
      Thread.sleep(POLL_MILLIS); // the polling interval, not synchronisation: the condition decides
    }
  }

  /**
   * Reads a value every {@code every} until {@code done} accepts it or {@code within} passed, and returns the last
   * value read, done or not: for a wait whose caller reports what is still missing (a view not settled yet).
   */
  public static <T> T lastRead(Callable<T> read, Predicate<? super T> done, Duration within, Duration every)
      throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    T value = read.call();
    while (!done.test(value) && System.nanoTime() - deadline < 0) {
      Thread.sleep(every.toMillis()); // the polling interval, not synchronisation: `done` decides
      value = read.call();
    }
    return value;
  }

  /** Returns the name of the thread a future's dependents run on when it completes. */
  public static String completionThread(CompletableFuture<?> future) throws Exception {
    CompletableFuture<String> name = new CompletableFuture<>();
    future.whenComplete((v, e) -> name.complete(Thread.currentThread().getName()));
    return value(name);
  }

  public static void assertState(Object expected, Object actual) {
    assertEquals(expected, actual);
  }
}
