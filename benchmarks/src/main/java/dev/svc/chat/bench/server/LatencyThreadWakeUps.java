package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.ProcessCounters;
import dev.svc.chat.bench.support.Report;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where our stack's wake-ups go in {@link LatencyLayoutsBenchmark}: each of our processes' voluntary context
 * switches thread by thread over a measured round (/proc/PID/task, a thread by its name as Linux keeps it, 15
 * characters, digits as #, so a pool counts once), per message delivered, and the table of their medians over
 * the rounds. A hand-off between threads is a wake-up of the thread handed to, so this is the profile of what the
 * per-message wake-ups of the counts table are made of.
 */
final class LatencyThreadWakeUps {
    /** Threads whose median is under this many wake-ups a message are left out of the table. */
    static final double SHOWN_FROM = 0.05;
    private static final String[] PROCESSES = {"sender", "receiver", "server"};
    /** The paragraph before the table: what it counts and whose the threads are. */
    static final String ABOUT = "Ours' wake-ups a message, thread by thread: each of our processes' threads' "
            + "voluntary context switches over each measured round (/proc/PID/task; a thread by its name as Linux "
            + "keeps it, 15 characters, digits as #, so a pool counts once), per message delivered; the median of "
            + "the rounds with the lowest and highest in brackets, the largest first, threads with a median under "
            + Report.num(SHOWN_FROM, 2) + " together as \"the rest\". This is what the counts table's wake-ups "
            + "are made of. In our peers: `OkHttp TaskRunn` OkHttp's task runner, which writes each WebSocket "
            + "frame (a thread woken to write, which wakes another to wait for the next task); `OkHttp http://#` "
            + "the socket's reader (OkHttp names it after the URL), which also runs an idle engine's work; "
            + "`svc-chat-engine` the client's engine when work waits for it; `svc-chat-callba` its callback "
            + "executor (the handlers, and each send's future); `java` the process's main thread, the peer's "
            + "sending thread, parked between paced sends. In the server, `JettyServerThre` is Jetty's selectors "
            + "and request threads, which read each frame and write the frames of a room of up to 4 members.";

    /** One process of ours in one round: wake-ups a message of each thread name. */
    record Sample(int rate, boolean twoProcesses, String process, Map<String, Double> perMessage) {
    }

    private LatencyThreadWakeUps() {
    }

    /** Returns each process's wake-ups by thread name so far, in {@code pids}'s order. */
    static List<Map<String, Long>> snapshot(long[] pids) {
        List<Map<String, Long>> all = new ArrayList<>();
        for (long pid : pids) {
            all.add(ProcessCounters.wakeUpsByThread(pid));
        }
        return all;
    }

    /**
     * Returns the samples of a round: {@code after} less {@code before}, process by process ({@link
     * LatencyDevices#pids}'s order: sender, receiver, server; in one process the pair's once, as its sender), per
     * message. A thread that started during the round counts all of its own; one that ended takes its count with
     * it.
     */
    static List<Sample> since(int rate, boolean twoProcesses, List<Map<String, Long>> before,
                              List<Map<String, Long>> after, int messages) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < after.size() && i < before.size(); i++) {
            if (i == 1 && !twoProcesses) {
                continue;
            }
            Map<String, Double> perMessage = new TreeMap<>();
            for (Map.Entry<String, Long> e : after.get(i).entrySet()) {
                long woken = e.getValue() - before.get(i).getOrDefault(e.getKey(), 0L);
                if (woken > 0) {
                    perMessage.put(e.getKey(), woken / (double) Math.max(1, messages));
                }
            }
            String process = i == 0 && !twoProcesses ? "sender and receiver" : PROCESSES[i];
            samples.add(new Sample(rate, twoProcesses, process, perMessage));
        }
        return samples;
    }

    /**
     * Adds the table: for each rate, layout and process, each thread's wake-ups a message as the median of the
     * rounds with the lowest and highest in brackets (a round without the thread counts 0), the largest first,
     * those with a median of {@link #SHOWN_FROM} or more, then the rest together.
     */
    static void add(Report report, List<Sample> samples) {
        if (samples.isEmpty()) {
            return;
        }
        report.paragraph(ABOUT);
        Report.Table table = report.table("msg/s", "layout", "process", "thread", "wake-ups a message");
        Map<String, List<Sample>> groups = new LinkedHashMap<>();
        samples.stream()
                .sorted(Comparator.comparingInt(Sample::rate).thenComparing(s -> !s.twoProcesses())
                        .thenComparing(s -> order(s.process())))
                .forEach(s -> groups.computeIfAbsent(s.rate() + "/" + s.twoProcesses() + "/" + s.process(),
                        k -> new ArrayList<>()).add(s));
        for (List<Sample> group : groups.values()) {
            Sample first = group.get(0);
            for (String[] row : rows(group)) {
                table.row(Report.num(first.rate(), 0), LatencyDevices.describe(first.twoProcesses()),
                        first.process(), row[0], row[1]);
            }
        }
        table.end();
    }

    /** The rows of one process's rounds: thread name, then "median [lowest–highest]". */
    static List<String[]> rows(List<Sample> rounds) {
        Map<String, double[]> byThread = new TreeMap<>();
        for (int r = 0; r < rounds.size(); r++) {
            for (Map.Entry<String, Double> e : rounds.get(r).perMessage().entrySet()) {
                byThread.computeIfAbsent(e.getKey(), k -> new double[rounds.size()])[r] = e.getValue();
            }
        }
        List<Map.Entry<String, double[]>> sorted = new ArrayList<>(byThread.entrySet());
        sorted.sort(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> -Report.median(e.getValue()))
                .thenComparing(Map.Entry::getKey));
        List<String[]> rows = new ArrayList<>();
        double[] rest = new double[rounds.size()];
        for (Map.Entry<String, double[]> e : sorted) {
            if (Report.median(e.getValue()) >= SHOWN_FROM) {
                rows.add(new String[] {"`" + e.getKey() + "`", spread(e.getValue())});
            } else {
                for (int r = 0; r < rest.length; r++) {
                    rest[r] += e.getValue()[r];
                }
            }
        }
        if (Arrays.stream(rest).anyMatch(v -> v > 0)) {
            rows.add(new String[] {"the rest", spread(rest)});
        }
        return rows;
    }

    private static String spread(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return Report.num(Report.median(values), 2) + " [" + Report.num(sorted[0], 2) + "–"
                + Report.num(sorted[sorted.length - 1], 2) + "]";
    }

    private static int order(String process) {
        return process.equals("server") ? 1 : process.equals("receiver") ? 2 : 0;
    }
}
