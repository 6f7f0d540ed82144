package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.ThreadSplit;
import java.util.Locale;

/**
 * How long processes' threads were runnable but waiting for a CPU: the run-queue wait of Linux's
 * /proc/PID/task/TID/schedstat, by thread ({@link ThreadSplit}), so that a message's hand-offs can be weighed by
 * the time their threads waited for a core after being woken. A thread that ended between two readings is not
 * counted; one that started meanwhile counts from zero. Without /proc every figure is unknown.
 */
final class RunQueueWait {
    /** Each process's threads' counts so far; null where /proc could not be read. */
    private final ThreadSplit[] splits;

    private RunQueueWait(ThreadSplit[] splits) {
        this.splits = splits;
    }

    /** Reads the run-queue wait so far of each thread of processes {@code pids}. */
    static RunQueueWait of(long[] pids) {
        ThreadSplit[] all = new ThreadSplit[pids.length];
        for (int i = 0; i < pids.length; i++) {
            all[i] = ThreadSplit.of(pids[i]);
        }
        return new RunQueueWait(all);
    }

    /** Returns each process's wait between {@code before} and this reading, ns (-1 where unknown). */
    long[] since(RunQueueWait before) {
        long[] waited = new long[splits.length];
        for (int i = 0; i < splits.length; i++) {
            waited[i] = splits[i] == null || before.splits[i] == null ? -1
                    : ThreadSplit.sum(splits[i].since(before.splits[i]), "").waitNanos();
        }
        return waited;
    }

    /**
     * "waiting for a CPU µs 40 / 12 / 8" a message delivered, in the counts' order (sender / server / receiver,
     * from {@link LatencyDevices#pids}'s sender, receiver, server), or "... µs 40 (pair) / 12 (server)" in the
     * one-process layout; "-" where unknown.
     */
    static String perMessage(long[] waitedNanos, int messages, boolean twoProcesses) {
        String[] micros = new String[waitedNanos.length];
        for (int i = 0; i < waitedNanos.length; i++) {
            micros[i] = micros(waitedNanos[i], messages);
        }
        if (!twoProcesses) {
            micros[0] += " (pair)";
            micros[2] += " (server)";
        }
        return "waiting for a CPU µs " + LatencyDevices.inCountsOrder(micros, twoProcesses);
    }

    private static String micros(long nanos, int messages) {
        return nanos < 0 || messages <= 0 ? "-" : String.format(Locale.ROOT, "%.0f", nanos / 1000.0 / messages);
    }
}
