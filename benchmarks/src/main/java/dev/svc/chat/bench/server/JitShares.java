package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.ProcessCounters;
import dev.svc.chat.bench.support.Report;
import java.util.ArrayList;
import java.util.List;

/**
 * The share of each of our JVMs' CPU that its JIT compilers (C1 and C2 threads) took from a start to now: what
 * a warm-up settles on, and what is printed beside each measured round, so that no round's figures depend on
 * unseen compiling. Where /proc cannot be read, or a JVM took no CPU, its share is NaN.
 */
final class JitShares {
    private final long[] pids;
    private final double[] jitBefore;
    private final ProcessCounters[] before;

    private JitShares(long[] pids) {
        this.pids = pids.clone();
        this.jitBefore = new double[pids.length];
        this.before = new ProcessCounters[pids.length];
        for (int i = 0; i < pids.length; i++) {
            jitBefore[i] = ChildProcess.jitCpuSeconds(pids[i]);
            before[i] = ProcessCounters.of(pids[i]);
        }
    }

    /** Starts counting for JVMs {@code pids} (sender, receiver, server: {@link LatencyDevices#pids}'s order). */
    static JitShares start(long[] pids) {
        return new JitShares(pids);
    }

    /** Returns each JVM's compilers' CPU over its CPU since the start, in the pids' order. */
    double[] shares() {
        double[] shares = new double[pids.length];
        for (int i = 0; i < pids.length; i++) {
            ProcessCounters spent = ProcessCounters.of(pids[i]).since(before[i]);
            double cpuSeconds = spent.cpuTicks() / 100.0;
            shares[i] = spent.cpuTicks() <= 0 ? Double.NaN
                    : (ChildProcess.jitCpuSeconds(pids[i]) - jitBefore[i]) / cpuSeconds;
        }
        return shares;
    }

    /** Returns the largest of {@code shares} (NaN ones left out; 0 when none is known). */
    static double worst(double[] shares) {
        double worst = 0;
        for (double share : shares) {
            if (!Double.isNaN(share)) {
                worst = Math.max(worst, share);
            }
        }
        return worst;
    }

    /**
     * "JIT 4 % / 12 % / 1 %" (sender / server / receiver, the counts' order), or "JIT 4 % / 12 %" (pair /
     * server) in the one-process layout.
     */
    static String describe(double[] shares, boolean twoProcesses) {
        String[] percents = new String[shares.length];
        for (int i = 0; i < shares.length; i++) {
            percents[i] = percent(shares[i]);
        }
        return "JIT " + LatencyDevices.inCountsOrder(percents, twoProcesses);
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : Report.num(100 * share, 0) + " %";
    }

    /** "2 pass(es), the compilers' largest share of a round 21 %, then 4 %" for the report. */
    static String settled(List<Double> settling) {
        List<String> all = new ArrayList<>();
        settling.forEach(share -> all.add(percent(share)));
        return settling.size() + " pass(es), the compilers' largest share of a round " + String.join(", then ", all);
    }
}
