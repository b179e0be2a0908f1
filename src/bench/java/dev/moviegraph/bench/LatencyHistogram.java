package dev.moviegraph.bench;

import java.util.Arrays;

/**
 * Latencies in microseconds, in fixed buckets: exact below {@value #EXACT} µs, then {@value #SUB_BUCKETS}
 * buckets per power of two (a bucket is less than 0.8% wide), up to {@link #HIGHEST} µs; larger values
 * share the last bucket. The maximum is kept exactly. Not thread-safe: each client thread records into its
 * own, and they are {@link #add added} together at the end, so recording costs an array increment and
 * no memory.
 */
final class LatencyHistogram {
    private static final int SUB_BITS = 7;
    static final int SUB_BUCKETS = 1 << SUB_BITS;
    static final int EXACT = 2 * SUB_BUCKETS;
    /** 2^25 µs, 33.5 s: more than a request may take before it times out. */
    private static final int TOP_BIT = 25;
    static final long HIGHEST = (1L << TOP_BIT) - 1;
    private static final int BUCKETS = EXACT + (TOP_BIT - SUB_BITS - 1) * SUB_BUCKETS;

    private final int[] counts = new int[BUCKETS];
    private long count;
    private long sum;
    private long max;

    void record(long micros) {
        long value = Math.max(0, micros);
        counts[index(Math.min(value, HIGHEST))]++;
        count++;
        sum += value;
        max = Math.max(max, value);
    }

    void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        sum += other.sum;
        max = Math.max(max, other.max);
    }

    void reset() {
        Arrays.fill(counts, 0);
        count = 0;
        sum = 0;
        max = 0;
    }

    long count() {
        return count;
    }

    long max() {
        return max;
    }

    double mean() {
        return count == 0 ? Double.NaN : (double) sum / count;
    }

    /**
     * Nearest rank, like {@link Benchmark#percentile}: the value with at least p% of the values at or below it,
     * given as the highest value of its bucket (never above the maximum, and the maximum in the last bucket);
     * -1 when empty.
     */
    long percentile(double p) {
        if (count == 0) {
            return -1;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100 * count));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return i == BUCKETS - 1 ? max : Math.min(highest(i), max);
            }
        }
        return max;
    }

    static int index(long micros) {
        if (micros < EXACT) {
            return (int) micros;
        }
        int shift = 63 - Long.numberOfLeadingZeros(micros) - SUB_BITS;
        return EXACT + (shift - 1) * SUB_BUCKETS + (int) ((micros >> shift) - SUB_BUCKETS);
    }

    static long lowest(int index) {
        if (index < EXACT) {
            return index;
        }
        int shift = (index - EXACT) / SUB_BUCKETS + 1;
        return ((long) (index - EXACT) % SUB_BUCKETS + SUB_BUCKETS) << shift;
    }

    static long highest(int index) {
        return index + 1 < BUCKETS ? lowest(index + 1) - 1 : HIGHEST;
    }
}
