package dev.moviegraph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void bucketsCoverEveryValueOnceAndStayNarrow() {
        int previous = -1;
        for (long value = 0; value <= LatencyHistogram.HIGHEST; value = value < 5_000 ? value + 1 : value * 101 / 100) {
            int index = LatencyHistogram.index(value);
            assertTrue(index >= previous, "indexes grow with the value at " + value);
            previous = index;
            assertTrue(LatencyHistogram.lowest(index) <= value && value <= LatencyHistogram.highest(index),
                    value + " is inside its bucket " + index);
            long width = LatencyHistogram.highest(index) - LatencyHistogram.lowest(index) + 1;
            assertTrue(width == 1 || width <= value / (LatencyHistogram.SUB_BUCKETS - 1), "bucket of " + value);
        }
        assertEquals(LatencyHistogram.HIGHEST, LatencyHistogram.highest(LatencyHistogram.index(LatencyHistogram.HIGHEST)));
        assertEquals(LatencyHistogram.lowest(LatencyHistogram.index(1L << 20)), 1L << 20);
    }

    @Test
    void smallValuesAreExactAndPercentilesAreNearestRank() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int value = 1; value <= 100; value++) {
            histogram.record(value);
        }
        assertEquals(50, histogram.percentile(50));
        assertEquals(99, histogram.percentile(99));
        assertEquals(100, histogram.percentile(100));
        assertEquals(1, histogram.percentile(0));
        assertEquals(50.5, histogram.mean());
        assertEquals(-1, new LatencyHistogram().percentile(50));
    }

    @Test
    void mergedHistogramsAgreeWithSortingWithinABucket() {
        SplittableRandom random = new SplittableRandom(7);
        long[] all = new long[20_000];
        LatencyHistogram merged = new LatencyHistogram();
        LatencyHistogram[] parts = {new LatencyHistogram(), new LatencyHistogram(), new LatencyHistogram()};
        for (int i = 0; i < all.length; i++) {
            all[i] = (long) Math.exp(random.nextDouble(3, 14));
            parts[i % parts.length].record(all[i]);
        }
        for (LatencyHistogram part : parts) {
            merged.add(part);
        }
        Arrays.sort(all);
        assertEquals(all.length, merged.count());
        assertEquals(all[all.length - 1], merged.max());
        for (double p : new double[] {50, 95, 99, 99.9}) {
            long exact = (long) Benchmark.percentile(all, p);
            long approximate = merged.percentile(p);
            assertEquals(LatencyHistogram.index(exact), LatencyHistogram.index(approximate), "p" + p);
            assertTrue(approximate >= exact && approximate - exact <= exact / 100, "p" + p);
        }
        merged.reset();
        assertEquals(0, merged.count());
        assertEquals(0, merged.max());
    }

    @Test
    void valuesAboveTheRangeShareTheLastBucketButKeepTheirMaximum() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(LatencyHistogram.HIGHEST * 4);
        histogram.record(-5);
        assertEquals(LatencyHistogram.HIGHEST * 4, histogram.max());
        assertEquals(LatencyHistogram.HIGHEST * 4, histogram.percentile(100));
        assertEquals(0, histogram.percentile(50));
    }
}
