package dev.moviegraph.imdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class SkipCountsTest {
    private static Skip skip(SkipReason reason, long line) {
        return new Skip("title.basics.tsv.gz", line, reason, "tconst \"x" + line + "\"");
    }

    @Test
    void countsByReasonAndKeepsTheFirstFiveOfEach() {
        SkipCounts counts = new SkipCounts();
        for (int line = 1; line <= 7; line++) {
            counts.add(skip(SkipReason.BAD_ID, line));
        }
        counts.add(skip(SkipReason.BAD_NUMBER, 99));
        assertEquals(7, counts.count(SkipReason.BAD_ID));
        assertEquals(1, counts.count(SkipReason.BAD_NUMBER));
        assertEquals(0, counts.count(SkipReason.INVALID_UTF8));
        assertEquals(8, counts.total());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), counts.examples(SkipReason.BAD_ID).stream().map(Skip::line).toList());
        assertEquals(List.of(skip(SkipReason.BAD_NUMBER, 99)), counts.examples(SkipReason.BAD_NUMBER));
        assertEquals(List.of(), counts.examples(SkipReason.INVALID_UTF8));
    }

    @Test
    void summaryGivesCountsAndFileLineDetailOfTheExamples() {
        SkipCounts counts = new SkipCounts();
        for (int line = 1; line <= 7; line++) {
            counts.add(skip(SkipReason.BAD_ID, line));
        }
        counts.add(new Skip("name.basics.tsv.gz", 12, SkipReason.MISSING_REQUIRED, "primaryName \"\""));
        String summary = counts.summary();
        assertTrue(summary.startsWith("8 lines skipped\n"), summary);
        assertTrue(summary.contains("\n  BAD_ID: 7\n    title.basics.tsv.gz:1: tconst \"x1\""), summary);
        assertTrue(summary.contains("title.basics.tsv.gz:5: tconst \"x5\""), summary);
        assertFalse(summary.contains("title.basics.tsv.gz:6:"), "only five examples: " + summary);
        assertTrue(summary.contains("\n  MISSING_REQUIRED: 1\n    name.basics.tsv.gz:12: primaryName \"\""), summary);
        assertFalse(summary.contains("BAD_NUMBER"), "reasons without skips are left out: " + summary);
    }

    @Test
    void summaryWithoutSkips() {
        assertEquals("no lines skipped", new SkipCounts().summary());
    }

    @Test
    void countsExactlyFromManyThreads() throws Exception {
        SkipCounts counts = new SkipCounts();
        int threads = 8;
        int perThread = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        SkipReason reason = SkipReason.values()[i % SkipReason.values().length];
                        counts.add(skip(reason, (long) thread * perThread + i));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals((long) threads * perThread, counts.total());
        long sum = 0;
        for (SkipReason reason : SkipReason.values()) {
            sum += counts.count(reason);
            assertEquals(SkipCounts.EXAMPLES, counts.examples(reason).size(), reason.name());
        }
        assertEquals(counts.total(), sum);
    }
}
