package dev.svc.chat.bench.server;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The merged latency histograms of a run's member processes: bucket k counts the deliveries whose latency in
 * microseconds was in [e^(k/100), e^((k+1)/100)), about 1 % wide (node/fanout-load-members.js makes them so).
 */
final class LatencyHistogram {
    static final int BUCKETS = 2400;
    private final long[] counts = new long[BUCKETS];
    private long total;

    /** Adds one process's histogram: an array of [bucket, count] pairs. */
    void add(JsonNode pairs) {
        for (JsonNode pair : pairs) {
            add(pair.get(0).asInt(), pair.get(1).asLong());
        }
    }

    /** Adds {@code count} deliveries to {@code bucket}. */
    void add(int bucket, long count) {
        counts[Math.max(0, Math.min(BUCKETS - 1, bucket))] += count;
        total += count;
    }

    /** Returns the bucket of a latency of {@code micros}, as the members count it. */
    static int bucketOf(double micros) {
        return (int) Math.min(BUCKETS - 1, Math.floor(100 * Math.log(Math.max(1, micros))));
    }

    /** The nearest-rank percentile {@code p} (0..100) in milliseconds, its bucket's middle; NaN when empty. */
    double percentileMillis(double p) {
        if (total == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100 * total));
        long seen = 0;
        for (int k = 0; k < BUCKETS; k++) {
            seen += counts[k];
            if (seen >= rank) {
                return Math.exp((k + 0.5) / 100) / 1000;
            }
        }
        return Double.NaN;
    }
}
