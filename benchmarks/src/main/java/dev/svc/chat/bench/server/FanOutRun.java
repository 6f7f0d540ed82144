package dev.svc.chat.bench.server;

import java.util.Map;

/**
 * One measured run of the fan-out benchmark: a room of {@code members}, {@code messages} sent. Rates count from
 * the first send to the last arrival. CPU figures are a process's CPU time over the run divided by its length
 * (1.0 is one core): the server's, of it its JIT compiler threads' (NaN for Node), the senders' and the members'
 * processes summed, and the busiest single load-side process, with the bound it is held to. {@code serverThreads}
 * is the server's CPU by thread
 * name (digits dropped, so a pool counts as one; ours only, empty for Node), in cores.
 */
record FanOutRun(int members, int messages, long received, double perSecond, double p50, double p99, int failed,
                 double sendersCpu, double membersCpu, double busiestLoad, double loadBound, double serverCpu,
                 double serverJitCpu, Map<String, Double> serverThreads) {

    /**
     * A load-side process above this share of a core makes a run invalid (the load side may have been the limit),
     * unless the benchmark is given another bound ({@code --max-load-core}).
     */
    static final double MAX_LOAD_CORE = 0.8;

    /** Whether no load-side process (sender or members) used more than {@code loadBound} of a core. */
    boolean valid() {
        return !(busiestLoad > loadBound);
    }

    /** Returns the server's CPU time a delivery, in microseconds (NaN when nothing was received). */
    double serverMicros() {
        return perSecond > 0 ? serverCpu / perSecond * 1e6 : Double.NaN;
    }

    /** Returns the JIT compilers' share of the server's CPU over the run (NaN for Node). */
    double jitShare() {
        return serverCpu > 0 ? serverJitCpu / serverCpu : Double.NaN;
    }

    /** Returns the deliveries that did not arrive. */
    long missing() {
        return Math.max(0, (long) messages * members - received);
    }
}
