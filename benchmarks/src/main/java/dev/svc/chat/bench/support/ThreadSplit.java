package dev.svc.chat.bench.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.TreeMap;

/**
 * A process's threads as Linux counts them (/proc/PID/task; this JVM's by {@link #now}), summed by thread name
 * with its digits dropped (a pool's threads count together; a thread counts under its name at the later
 * snapshot, since OkHttp renames its threads while they run a call): CPU time, time spent runnable but waiting
 * for a CPU (schedstat's run-queue wait), and context switches, voluntary (a park, a blocking read) and not
 * (preempted). A snapshot is taken before and after a round; {@link #since} gives the round's.
 */
public final class ThreadSplit {
    /** One thread name's counts: nanoseconds of CPU and of run-queue wait, switches. */
    public record Counts(long cpuNanos, long waitNanos, long voluntary, long preempted) {
        Counts plus(Counts o) {
            return new Counts(cpuNanos + o.cpuNanos, waitNanos + o.waitNanos, voluntary + o.voluntary,
                    preempted + o.preempted);
        }

        Counts minus(Counts o) {
            return new Counts(cpuNanos - o.cpuNanos, waitNanos - o.waitNanos, voluntary - o.voluntary,
                    preempted - o.preempted);
        }
    }

    /** Each thread's counts so far, by thread id. */
    private final Map<String, Counts> byThread;
    /** Each thread's name (digits dropped), by thread id. */
    private final Map<String, String> names;

    private ThreadSplit(Map<String, Counts> byThread, Map<String, String> names) {
        this.byThread = byThread;
        this.names = names;
    }

    /** Returns the counts of this JVM's threads so far (empty without /proc). */
    public static ThreadSplit now() {
        ThreadSplit self = read(Paths.get("/proc/self/task"));
        return self != null ? self : new ThreadSplit(new TreeMap<>(), new TreeMap<>());
    }

    /** Returns the counts of process {@code pid}'s threads so far, or null where its /proc cannot be read. */
    public static ThreadSplit of(long pid) {
        return read(Paths.get("/proc", String.valueOf(pid), "task"));
    }

    private static ThreadSplit read(Path taskDirectory) {
        Map<String, Counts> byThread = new TreeMap<>();
        Map<String, String> names = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDirectory)) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim().replaceAll("[0-9]+", "#");
                    // schedstat: CPU ns, run-queue wait ns, time slices
                    String[] sched = Files.readString(task.resolve("schedstat")).trim().split(" ");
                    long voluntary = 0;
                    long preempted = 0;
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            preempted = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                    String id = task.getFileName().toString();
                    byThread.put(id, new Counts(Long.parseLong(sched[0]), Long.parseLong(sched[1]), voluntary,
                            preempted));
                    names.put(id, name);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return null;
        }
        return new ThreadSplit(byThread, names);
    }

    /**
     * Returns what was counted between {@code before} and this snapshot, by thread name (threads that ended
     * meanwhile are not counted).
     */
    public Map<String, Counts> since(ThreadSplit before) {
        Map<String, Counts> out = new TreeMap<>();
        for (Map.Entry<String, Counts> e : byThread.entrySet()) {
            Counts was = before.byThread.getOrDefault(e.getKey(), new Counts(0, 0, 0, 0));
            out.merge(names.get(e.getKey()), e.getValue().minus(was), Counts::plus);
        }
        return out;
    }

    /**
     * Returns this snapshot with the threads of {@code older} that ended since added at their last counts, so
     * that snapshots taken every few milliseconds keep a short-lived thread's CPU (up to the last one).
     */
    public ThreadSplit keeping(ThreadSplit older) {
        Map<String, Counts> threads = new TreeMap<>(older.byThread);
        Map<String, String> named = new TreeMap<>(older.names);
        threads.putAll(byThread);
        named.putAll(names);
        return new ThreadSplit(threads, named);
    }

    /** Returns the counts of the threads whose names start with {@code prefix}, summed. */
    public static Counts sum(Map<String, Counts> split, String prefix) {
        Counts total = new Counts(0, 0, 0, 0);
        for (Map.Entry<String, Counts> e : split.entrySet()) {
            if (e.getKey().startsWith(prefix)) total = total.plus(e.getValue());
        }
        return total;
    }
}
