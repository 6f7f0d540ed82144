package dev.svc.chat.reference;

import dev.svc.chat.reference.cluster.BusFaults;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A node's bus with a queue of one whose sender, while held, stops before its next notification until
 * {@link #maySend} opens (at most 60 s), so that what the node publishes meanwhile overflows the queue.
 */
final class StalledBus implements BusFaults {
    /** Opens when the held sender begins a notification. */
    final CountDownLatch sending = new CountDownLatch(1);
    /** Lets the held sender go on. */
    final CountDownLatch maySend = new CountDownLatch(1);
    private final AtomicBoolean held;

    StalledBus(boolean heldFromStart) {
        this.held = new AtomicBoolean(heldFromStart);
    }

    /** Holds (or stops holding) the sender before its next notification. */
    void hold(boolean hold) {
        held.set(hold);
    }

    @Override
    public int queueCapacity() {
        return 1;
    }

    @Override
    public void beforeNotify() {
        if (!held.get()) {
            return;
        }
        sending.countDown();
        try {
            maySend.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
