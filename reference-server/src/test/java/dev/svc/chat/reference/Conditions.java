package dev.svc.chat.reference;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waiting on what a test can only poll, with a deadline a passing test never waits out: a loaded machine may hold a
 * thread back for seconds. The server's tests share nothing with the SDK's, so this is their own small copy of the
 * SDK tests' {@code Await}.
 */
public final class Conditions {
    /** How long a wait lasts before it fails. */
    static final Duration WAIT = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 10;

    private Conditions() {
    }

    /** Polls {@code condition} until true, failing after {@link #WAIT}. */
    static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, WAIT, condition, () -> "");
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
                throw new AssertionError("timed out after " + within.toSeconds() + " s waiting for " + what
                        + (more.isEmpty() ? "" : ": " + more));
            }
            Thread.sleep(POLL_MILLIS); // the polling interval, not synchronisation: the condition decides
        }
    }

    /**
     * Reads a value every {@code every} until {@code done} accepts it or {@code within} passed, and returns the last
     * value read, done or not, for the caller to assert on.
     */
    static <T> T lastRead(Callable<T> read, Predicate<? super T> done, Duration within, Duration every)
            throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        T value = read.call();
        while (!done.test(value) && System.nanoTime() - deadline < 0) {
            Thread.sleep(every.toMillis()); // the polling interval, not synchronisation: `done` decides
            value = read.call();
        }
        return value;
    }
}
