package dev.svc.chat.bench.console;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One run's figures: each send's {@code System.nanoTime()} (written by the sender), what the page noted of it
 * ({@link PageProbe}), the heap samples, and the thread that drives the browser meanwhile.
 */
final class ConsoleRun {

    /** Send to the row's note. */
    static final int ROW = 0;
    /** Send to the next animation frame after the row. */
    static final int FRAME = 1;
    /** Send to the frame's arrival at the page's WebSocket. */
    static final int SOCKET = 2;
    /** Arrival at the page's WebSocket to the row. */
    static final int IN_PAGE = 3;

    final long[] sentAt;
    final Map<Integer, PageProbe.Seen> seen = new ConcurrentHashMap<>();
    final List<double[]> heap = new ArrayList<>();
    double offsetStart;
    double offsetEnd;
    double[] longTasks = {Double.NaN, Double.NaN};
    private final PageProbe probe;
    private volatile RuntimeException failure;

    ConsoleRun(PageProbe probe, int maxSends) {
        this.probe = probe;
        this.sentAt = new long[maxSends];
    }

    /** Until {@code end}: drains the page's notes every second and samples the heap every {@code heapEvery} s. */
    void monitor(long start, long end, int heapEvery) {
        try {
            long nextHeap = start + TimeUnit.SECONDS.toNanos(heapEvery);
            for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
                LockSupport.parkNanos(Math.min(TimeUnit.SECONDS.toNanos(1), end - now));
                drain();
                if (System.nanoTime() >= nextHeap && System.nanoTime() < end) {
                    heap.add(new double[] {(System.nanoTime() - start) / 1e9, probe.heapMb()});
                    nextHeap += TimeUnit.SECONDS.toNanos(heapEvery);
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /** Rethrows what stopped the monitor, if anything did. */
    void rethrow() {
        if (failure != null) {
            throw failure;
        }
    }

    /** Takes the page's notes so far. */
    void drain() {
        for (PageProbe.Seen s : probe.drain()) {
            seen.putIfAbsent(s.index(), s);
        }
        longTasks = probe.longTasks();
    }

    /** Returns the latencies of {@code kind} in ms, sorted; the page's times are mapped by the start offset. */
    double[] latencies(int kind) {
        double[] out = new double[seen.size()];
        int n = 0;
        for (PageProbe.Seen s : seen.values()) {
            double sent = sentAt[s.index()] / 1e6 + offsetStart; // on the page's clock
            double v = switch (kind) {
                case ROW -> s.row() - sent;
                case FRAME -> s.frame() - sent;
                case SOCKET -> s.arrived() - sent;
                default -> s.row() - s.arrived();
            };
            if (!Double.isNaN(v)) {
                out[n++] = v;
            }
        }
        double[] values = Arrays.copyOf(out, n);
        Arrays.sort(values);
        return values;
    }
}
