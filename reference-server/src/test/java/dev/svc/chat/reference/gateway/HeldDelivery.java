package dev.svc.chat.reference.gateway;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link FanOutSeam} that holds the fan-out thread at its first delivery to one user's connection, with the
 * delivery order's read side held, until the test releases it (or {@code wait} passed). A test that needs more of
 * the seam overrides its other points.
 */
class HeldDelivery implements FanOutSeam {
    private final String userId;
    private final Duration wait;
    private final AtomicBoolean armed = new AtomicBoolean(true);
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    HeldDelivery(String userId, Duration wait) {
        this.userId = userId;
        this.wait = wait;
    }

    @Override
    public void delivering(GatewayConnection connection) {
        if (userId.equals(connection.userId()) && armed.compareAndSet(true, false)) {
            reached.countDown();
            try {
                released.await(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits until the fan-out is held at the user's connection; false if it was not within {@code wait}. */
    boolean awaitHeld() throws InterruptedException {
        return reached.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the fan-out reached the user's connection (and is held there, until {@link #release()}). */
    boolean held() {
        return reached.getCount() == 0;
    }

    /** Lets the fan-out thread go on. */
    void release() {
        released.countDown();
    }
}
