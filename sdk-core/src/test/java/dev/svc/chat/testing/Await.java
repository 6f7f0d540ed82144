package dev.svc.chat.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** Waiting with deadlines instead of sleeps. */
public final class Await {
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

  /** Polls {@code condition} until true or the deadline. */
  public static void until(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FakeGateway.TIMEOUT_SECONDS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) fail("timed out waiting for " + what);
      Thread.sleep(10); // polling interval, not synchronisation
    }
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
