package dev.svc.chat.bench.files;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.svc.chat.bench.support.ThreadSplit;

/**
 * What one transfer costs each group of this JVM's threads: CPU time and voluntary context switches as Linux counts
 * them ({@link ThreadSplit}, snapshots every 10 ms, so that a thread that ends during the transfer, as a download's
 * digest thread does, keeps its CPU up to its last snapshot), and the bytes each Java thread allocated. CPU time per
 * thread holds on a loaded machine, where wall-clock rates do not. What no thread's counts hold (threads that ended
 * between snapshots) is the JVM's total less their sum ("unattributed").
 */
final class ThreadCost {
    /** A group's counts over one or more transfers: CPU ns, voluntary switches, allocated bytes. */
    static final class Counts {
        long cpuNanos;
        long voluntary;
        long allocated;

        void add(Counts o) {
            cpuNanos += o.cpuNanos;
            voluntary += o.voluntary;
            allocated += o.allocated;
        }
    }

    static final String UNATTRIBUTED = "unattributed (threads ended between snapshots)";
    private static final String SAMPLER = "files-bench-thread-cost";
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final ThreadSplit before;
    private final Map<Long, Long> allocatedBefore;
    private final Map<Long, String> javaNames = new TreeMap<>();
    private final Map<Long, Long> allocatedLast = new TreeMap<>();
    private final long processBefore = FilesBench.cpuNanos();
    private volatile boolean running = true;
    private volatile ThreadSplit last;
    private final Thread sampler;

    private ThreadCost() {
        before = ThreadSplit.now();
        allocatedBefore = allocations();
        last = before;
        sampler = new Thread(this::sample, SAMPLER);
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts counting (a thread of its own takes the snapshots until {@link #stop}). */
    static ThreadCost start() {
        return new ThreadCost();
    }

    private void sample() {
        while (running) {
            last = ThreadSplit.now().keeping(last);
            synchronized (allocatedLast) {
                allocatedLast.putAll(allocations());
            }
            try {
                Thread.sleep(10); // a sampling period, not a synchronisation
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops counting; returns each group's counts since {@link #start} (the sampler's own CPU left out). */
    Map<String, Counts> stop() throws InterruptedException {
        Map<Long, Long> allocated = allocations(); // before the snapshots below, which allocate on this thread
        running = false;
        sampler.join();
        ThreadSplit after = ThreadSplit.now().keeping(last);
        long process = FilesBench.cpuNanos() - processBefore;
        Map<String, Counts> groups = new LinkedHashMap<>();
        long attributed = 0;
        for (Map.Entry<String, ThreadSplit.Counts> e : after.since(before).entrySet()) {
            attributed += e.getValue().cpuNanos();
            if (e.getKey().startsWith(SAMPLER.substring(0, 15))) continue;
            Counts c = groups.computeIfAbsent(group(e.getKey()), k -> new Counts());
            c.cpuNanos += e.getValue().cpuNanos();
            c.voluntary += e.getValue().voluntary();
        }
        synchronized (allocatedLast) {
            allocatedLast.putAll(allocated);
            for (Map.Entry<Long, Long> e : allocatedLast.entrySet()) {
                String name = javaNames.get(e.getKey());
                if (name == null || name.equals(SAMPLER)) continue;
                long delta = e.getValue() - allocatedBefore.getOrDefault(e.getKey(), 0L);
                groups.computeIfAbsent(group(comm(name)), k -> new Counts()).allocated += delta;
            }
        }
        groups.computeIfAbsent(UNATTRIBUTED, k -> new Counts()).cpuNanos += Math.max(0, process - attributed);
        return groups;
    }

    /** Each live Java thread's allocated bytes so far, by id (names kept for the grouping). */
    private Map<Long, Long> allocations() {
        long[] ids = THREADS.getAllThreadIds();
        long[] bytes = THREADS.getThreadAllocatedBytes(ids);
        Map<Long, Long> out = new TreeMap<>();
        java.lang.management.ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        synchronized (javaNames) {
            for (int i = 0; i < ids.length; i++) {
                if (bytes[i] < 0 || infos[i] == null) continue;
                out.put(ids[i], bytes[i]);
                javaNames.put(ids[i], infos[i].getThreadName());
            }
        }
        return out;
    }

    /** A Java thread's name as Linux shows it: 15 bytes at most, digits as {@code #} (as {@link ThreadSplit}). */
    private static String comm(String javaName) {
        return javaName.substring(0, Math.min(15, javaName.length())).replaceAll("[0-9]+", "#");
    }

    /** The group of a thread named {@code comm} (as Linux shows it, see {@link #comm}). */
    static String group(String comm) {
        if (comm.startsWith("svc-chat-http")) {
            return "the SDK's OkHttp thread (the download's reader, the upload's writer)";
        }
        if (comm.startsWith("svc-chat-downlo")) return "the SDK's digest thread (DigestPipe)";
        if (comm.startsWith("svc-chat-upload")) return "the SDK's upload reader (reads and hashes each chunk)";
        if (comm.startsWith("svc-chat-callba")) return "the SDK's callback thread (progress)";
        if (comm.startsWith("svc-chat-io")) return "the SDK's I/O worker (starts a download, allocates its buffers)";
        if (comm.startsWith("svc-chat")) return "the SDK's " + comm;
        if (comm.startsWith("Okio Watchdog")) return "Okio's watchdog (OkHttp's read and write timeouts)";
        if (comm.startsWith("OkHttp")) return "OkHttp's other threads";
        if (comm.startsWith("JettyServerThre")) return "the server's Jetty threads";
        // the launcher's thread that runs main() is "java" to Linux (the process's first thread is idle)
        if (comm.equals("main") || comm.equals("java")) return "the benchmark's main thread (the raw peers)";
        if (comm.startsWith("GC Thread") || comm.startsWith("G#") || comm.startsWith("VM ")) return "GC and VM";
        if (comm.startsWith("C# Compiler")) return "JIT compilers";
        return comm;
    }
}
