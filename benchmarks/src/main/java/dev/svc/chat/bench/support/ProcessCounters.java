package dev.svc.chat.bench.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts of one process that hold under load, read from Linux's /proc: write system calls ({@code syscw} of
 * {@code io}: a socket write is one), thread wake-ups (context switches summed over its threads: a thread that
 * parks and is woken counts one voluntary switch) and CPU time. A snapshot is taken before and after a measured
 * window and the difference divided by the messages of the window. Without /proc every count is -1.
 */
public record ProcessCounters(long writes, long wakeUps, long cpuTicks, Map<String, Long> wakeUpsByTask) {

    /** Counts without the threads' own (a difference, or none). */
    public ProcessCounters(long writes, long wakeUps, long cpuTicks) {
        this(writes, wakeUps, cpuTicks, Map.of());
    }

    /** Returns the counts of process {@code pid} so far. */
    public static ProcessCounters of(long pid) {
        Path proc = Paths.get("/proc", String.valueOf(pid));
        try {
            long writes = -1;
            for (String line : Files.readAllLines(proc.resolve("io"))) {
                if (line.startsWith("syscw:")) {
                    writes = Long.parseLong(line.substring(6).trim());
                }
            }
            long switches = 0;
            Map<String, Long> byTask = new HashMap<>();
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
                for (Path task : tasks) {
                    long n = voluntarySwitches(task);
                    if (n >= 0) {
                        switches += n;
                        byTask.put(task.getFileName().toString(), n);
                    }
                }
            }
            String stat = Files.readString(proc.resolve("stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new ProcessCounters(writes, switches, Long.parseLong(fields[11]) + Long.parseLong(fields[12]),
                    byTask);
        } catch (IOException | RuntimeException e) {
            return new ProcessCounters(-1, -1, -1);
        }
    }

    /**
     * Returns the voluntary context switches of process {@code pid}'s threads so far, summed by thread name with
     * its digits dropped (a pool's threads count together), for finding which threads wake per message.
     */
    public static Map<String, Long> wakeUpsByThread(long pid) {
        Map<String, Long> byName = new TreeMap<>();
        Path proc = Paths.get("/proc", String.valueOf(pid), "task");
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc)) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim().replaceAll("[0-9]+", "#");
                    long n = voluntarySwitches(task);
                    if (n >= 0) {
                        byName.merge(name, n, Long::sum);
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // no /proc
        }
        return byName;
    }

    /** Returns the voluntary context switches of thread {@code task} ({@code /proc/PID/task/TID}), -1 if it ended. */
    private static long voluntarySwitches(Path task) {
        try {
            for (String line : Files.readAllLines(task.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException e) {
            // the thread ended meanwhile
        }
        return -1;
    }

    /** Returns {@code after} less {@code before}, name by name, per message, the largest first. */
    public static String perMessage(Map<String, Long> before, Map<String, Long> after,
            int messages) {
        StringBuilder out = new StringBuilder();
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> out.append(String.format(Locale.ROOT, "%s %.3f; ", e.getKey(),
                        (double) e.getValue() / Math.max(1, messages))));
        return out.toString();
    }

    /** Returns the counts of this JVM so far. */
    public static ProcessCounters self() {
        return of(ProcessHandle.current().pid());
    }

    /**
     * Returns what was counted between {@code before} and this snapshot. The wake-ups are summed thread by thread
     * over the threads alive now (one started since counts all of its own): a thread that ended between the two,
     * as an idle pool's does, takes its count with it, so the totals' difference would lose what it had woken
     * before the window too, and could fall below zero.
     */
    public ProcessCounters since(ProcessCounters before) {
        if (writes < 0 || before.writes < 0) {
            return new ProcessCounters(-1, -1, -1);
        }
        long woken = 0;
        for (Map.Entry<String, Long> task : wakeUpsByTask.entrySet()) {
            woken += Math.max(0, task.getValue() - before.wakeUpsByTask.getOrDefault(task.getKey(), 0L));
        }
        return new ProcessCounters(writes - before.writes, woken, cpuTicks - before.cpuTicks);
    }

    /** Returns the write system calls per message, or NaN without counts. */
    public double writesPer(int messages) {
        return writes < 0 || messages == 0 ? Double.NaN : (double) writes / messages;
    }

    /** Returns the thread wake-ups (voluntary context switches) per message, or NaN without counts. */
    public double wakeUpsPer(int messages) {
        return wakeUps < 0 || messages == 0 ? Double.NaN : (double) wakeUps / messages;
    }

    /** Returns the CPU time per message in microseconds (100 clock ticks a second), or NaN without counts. */
    public double cpuMicrosPer(int messages) {
        return cpuTicks < 0 || messages == 0 ? Double.NaN : cpuTicks * 10_000.0 / messages;
    }
}
