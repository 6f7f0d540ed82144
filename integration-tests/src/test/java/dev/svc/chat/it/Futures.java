package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.svc.chat.ApiException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Waiting on the SDK's futures with the tests' deadline. */
final class Futures {
  /**
   * How long a test waits for a future or an event: generous, since a loaded machine may hold a thread back for
   * seconds, and a passing test never waits it out.
   */
  static final Duration WAIT = Duration.ofSeconds(30);

  private Futures() {
  }

  /** The future's value, failing if it does not complete within {@link #WAIT}. */
  static <T> T await(CompletableFuture<T> f) throws Exception {
    return f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Asserts that the future fails with an {@link ApiException} within {@link #WAIT}, and returns it. */
  static ApiException apiError(CompletableFuture<?> f) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(f));
    return assertInstanceOf(ApiException.class, e.getCause());
  }
}
