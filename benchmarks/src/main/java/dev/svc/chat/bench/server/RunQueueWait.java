package dev.svc.chat.bench.server;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How long processes' threads were runnable but waiting for a CPU: the run-queue wait of Linux's
 * /proc/PID/task/TID/schedstat (its second field, ns), by thread, so that a message's hand-offs can be weighed by
 * the time their threads waited for a core after being woken. A thread that ended between two readings is not
 * counted; one that started meanwhile counts from zero. Without /proc every figure is unknown.
 */
final class RunQueueWait {
    /** Each process's threads' run-queue wait so far (ns), by thread id; null where /proc could not be read. */
    private final Map<String, Long>[] byThread;

    private RunQueueWait(Map<String, Long>[] byThread) {
        this.byThread = byThread;
    }

    /** Reads the run-queue wait so far of each thread of processes {@code pids}. */
    @SuppressWarnings("unchecked")
    static RunQueueWait of(long[] pids) {
        Map<String, Long>[] all = new Map[pids.length];
        for (int i = 0; i < pids.length; i++) {
            all[i] = threads(pids[i]);
        }
        return new RunQueueWait(all);
    }

    private static Map<String, Long> threads(long pid) {
        Map<String, Long> waits = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    // schedstat: CPU ns, run-queue wait ns, time slices
                    String[] sched = Files.readString(task.resolve("schedstat")).trim().split(" ");
                    waits.put(task.getFileName().toString(), Long.parseLong(sched[1]));
                } catch (IOException | RuntimeException ended) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return null;
        }
        return waits;
    }

    /** Returns each process's wait between {@code before} and this reading, ns (-1 where unknown). */
    long[] since(RunQueueWait before) {
        long[] waited = new long[byThread.length];
        for (int i = 0; i < byThread.length; i++) {
            if (byThread[i] == null || before.byThread[i] == null) {
                waited[i] = -1;
                continue;
            }
            long sum = 0;
            for (Map.Entry<String, Long> thread : byThread[i].entrySet()) {
                sum += thread.getValue() - before.byThread[i].getOrDefault(thread.getKey(), 0L);
            }
            waited[i] = sum;
        }
        return waited;
    }

    /**
     * "waiting for a CPU µs 40 / 12 / 8" a message delivered, in the counts' order (sender / server / receiver,
     * from {@link LatencyDevices#pids}'s sender, receiver, server), or "... µs 40 (pair) / 12 (server)" in the
     * one-process layout; "-" where unknown.
     */
    static String perMessage(long[] waitedNanos, int messages, boolean twoProcesses) {
        String sender = micros(waitedNanos[0], messages);
        String server = micros(waitedNanos[2], messages);
        if (!twoProcesses) {
            return "waiting for a CPU µs " + sender + " (pair) / " + server + " (server)";
        }
        return "waiting for a CPU µs " + sender + " / " + server + " / " + micros(waitedNanos[1], messages);
    }

    private static String micros(long nanos, int messages) {
        return nanos < 0 || messages <= 0 ? "-" : String.format(Locale.ROOT, "%.0f", nanos / 1000.0 / messages);
    }
}
