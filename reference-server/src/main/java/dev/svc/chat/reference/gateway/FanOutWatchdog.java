package dev.svc.chat.reference.gateway;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sees a stuck fan-out. When the {@link FanOutDispatcher} has work (a delivery running or waiting) and has
 * finished none for the threshold, it logs at ERROR, once per stall, with the fan-out thread's stack, the lock
 * it waits for and that lock's owner's stack, and counts the stall; once the fan-out finishes a delivery again
 * it logs that it resumed. A stuck fan-out is not undone here (nothing safe could be), only made visible:
 * every socket of the node has stopped receiving room events while REST sends are still answered.
 *
 * <p>Checks run on a thread of their own, so that whatever holds the fan-out or the gateway's timer cannot
 * hold them; time is a monotonic ticker (the server's injected clock is wall time that tests move by hours),
 * so a test drives {@link #check} with a ticker of its own and nothing sleeps.
 */
final class FanOutWatchdog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FanOutWatchdog.class);
    /** How long the fan-out may have work without finishing any before it counts as stuck (chosen). */
    static final Duration DEFAULT_THRESHOLD = Duration.ofSeconds(5);

    private final FanOutDispatcher dispatcher;
    private final long thresholdNanos;
    private final LongSupplier ticker;
    private final AtomicLong stalls = new AtomicLong();
    private ScheduledThreadPoolExecutor checks;
    // Guarded by this (one check at a time).
    private long seenCompleted = -1;
    private long progressAt;
    private volatile boolean stalled;
    private volatile String lastReport;

    /** Watches {@code dispatcher} with {@code threshold}, reading time from {@code ticker} (nanoseconds). */
    FanOutWatchdog(FanOutDispatcher dispatcher, Duration threshold, LongSupplier ticker) {
        if (threshold.isNegative() || threshold.isZero()) {
            throw new IllegalArgumentException("threshold must be positive");
        }
        this.dispatcher = dispatcher;
        this.thresholdNanos = threshold.toNanos();
        this.ticker = ticker;
    }

    /** Checks every quarter of the threshold (at most every second) on a daemon thread of its own. */
    synchronized void start() {
        checks = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "svc-ref-fanout-watchdog");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10),
                Math.min(thresholdNanos / 4, TimeUnit.SECONDS.toNanos(1)));
        checks.scheduleAtFixedRate(this::checkQuietly, period, period, TimeUnit.NANOSECONDS);
    }

    /** Looks at the fan-out's progress once: reports a stall that reached the threshold, or its end. */
    synchronized void check() {
        long now = ticker.getAsLong();
        long completed = dispatcher.completed();
        if (completed != seenCompleted || !dispatcher.hasWork()) {
            if (stalled) {
                stalled = false;
                LOG.warn("the fan-out resumed after {} ms without progress",
                        TimeUnit.NANOSECONDS.toMillis(now - progressAt));
            }
            seenCompleted = completed;
            progressAt = now;
            return;
        }
        if (!stalled && now - progressAt >= thresholdNanos) {
            stalled = true;
            stalls.incrementAndGet();
            lastReport = describe(dispatcher.thread());
            LOG.error("the fan-out has made no progress for {} ms with {} events waiting: no socket of this node"
                            + " gets room events; the fan-out thread: {}",
                    TimeUnit.NANOSECONDS.toMillis(now - progressAt), dispatcher.pending(), lastReport);
        }
    }

    /** Returns whether the fan-out is stuck now (as of the last check). */
    boolean stalled() {
        return stalled;
    }

    /** Returns the number of stalls seen since the start. */
    long stalls() {
        return stalls.get();
    }

    /** Returns the thread report of the last stall, or null (for tests). */
    String lastReport() {
        return lastReport;
    }

    @Override
    public synchronized void close() {
        if (checks != null) {
            checks.shutdownNow();
        }
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            LOG.warn("the fan-out watchdog failed a check", e); // the next check runs anyway
        }
    }

    /** Returns the thread's state, its stack, the lock it waits for and the stack of that lock's owner. */
    static String describe(Thread thread) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ThreadInfo info = threads.getThreadInfo(new long[] {thread.getId()}, true, true)[0];
        if (info == null) {
            return thread.getName() + " " + thread.getState() + " (ended)";
        }
        StringBuilder text = new StringBuilder();
        append(text, info);
        if (info.getLockOwnerId() >= 0) {
            ThreadInfo owner = threads.getThreadInfo(new long[] {info.getLockOwnerId()}, true, true)[0];
            if (owner != null) {
                text.append("\nthe lock's owner: ");
                append(text, owner);
            }
        }
        return text.toString();
    }

    private static void append(StringBuilder text, ThreadInfo info) {
        text.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
        if (info.getLockName() != null) {
            text.append(" on ").append(info.getLockName());
        }
        if (info.getLockOwnerName() != null) {
            text.append(" owned by \"").append(info.getLockOwnerName()).append('"');
        }
        for (StackTraceElement frame : info.getStackTrace()) {
            text.append("\n\tat ").append(frame);
        }
        for (MonitorInfo monitor : info.getLockedMonitors()) {
            text.append("\n\tholds ").append(monitor).append(" (locked at ").append(monitor.getLockedStackFrame())
                    .append(')');
        }
        for (LockInfo lock : info.getLockedSynchronizers()) {
            text.append("\n\tholds ").append(lock);
        }
    }
}
