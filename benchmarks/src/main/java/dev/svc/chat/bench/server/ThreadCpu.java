package dev.svc.chat.bench.server;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.TreeMap;

/**
 * A process's CPU time by thread name, from Linux's /proc/PID/task (utime and stime, 100 clock ticks a second),
 * digits dropped from the names so that a pool's threads count together ("qtp#-#", "C# CompilerThre"). A thread
 * that ended between two snapshots is missing from the later one: its CPU is not counted.
 */
final class ThreadCpu {
    private ThreadCpu() {
    }

    /** Returns the CPU seconds so far of process {@code pid}'s threads by name (empty without /proc). */
    static Map<String, Double> of(long pid) {
        Map<String, Double> byName = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+", "#");
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    byName.merge(name, (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0, Double::sum);
                } catch (IOException | RuntimeException ended) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // no /proc
        }
        return byName;
    }

    /** Returns {@code after} less {@code before} by name, over {@code seconds}: cores; names that used none left out. */
    static Map<String, Double> since(Map<String, Double> before, Map<String, Double> after, double seconds) {
        Map<String, Double> used = new TreeMap<>();
        for (Map.Entry<String, Double> e : after.entrySet()) {
            double d = e.getValue() - before.getOrDefault(e.getKey(), 0.0);
            if (d > 0 && seconds > 0) {
                used.put(e.getKey(), d / seconds);
            }
        }
        return used;
    }
}
