package dev.moviegraph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;


import org.junit.jupiter.api.Test;

/**
 * The short version of {@code benchmark capacity}, on the engine with its partition limits on,
 * TOTALS=transactional: 400 streams a second over 50 movies, half of them on one, which throttled layout 3's
 * one month partition, fit; at 1,500 the hot movie's 750 pass its partition's 1,000 write units (the total's
 * update, doubled by the transaction, and the movie's check), so the run reports throttles there, and the
 * month's top list (one item, merged after each stream) stays exact over what was counted.
 */
class CapacityBenchTest {
    @Test
    void transactionalStreamsAreRefusedOnceTheHotMoviesPartitionIsFull() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<CapacityBench.Step> steps = CapacityBench.run(new CapacityBench.Options(50, List.of(400, 1_500), 0.5,
                "transactional", 8, 5, 3, 4, 25), new PrintStream(printed, true, StandardCharsets.UTF_8));
        String output = printed.toString(StandardCharsets.UTF_8);

        CapacityBench.Step quiet = steps.get(0);
        assertEquals(0, quiet.throttles(), output);
        assertTrue(quiet.hottestUnits() > 100 && quiet.hottestUnits() < 1_000, output);
        assertTrue(quiet.exact(), output);
        assertEquals(1, quiet.top10Requests(), "one GetItem of the month's list, as the engine charged it: " + output);
        assertEquals(quiet.top10ReportedRequests(), quiet.top10Requests(), "as the gateway counted them: " + output);
        assertEquals(0.5, quiet.top10Units(), 0.001, "a list of 50 entries is under 4 KB: half a unit: " + output);
        assertEquals(0, quiet.topMergeRetries(), "one gateway merges a month's list one merge at a time: " + output);

        CapacityBench.Step busy = steps.get(1);
        assertTrue(busy.throttles() >= 5, output);
        assertEquals("moviegraph/mov#tt00000001[write]", busy.busiestWrite(), "the hot movie's partition: " + output);
        assertTrue(busy.busiestWriteUnits() > 990 && busy.busiestWriteUnits() <= 1_000, "full, never past: " + output);
        assertTrue(output.contains("refused at: moviegraph/mov#tt00000001[write]x"), output);
        assertTrue(busy.hottest().contains("mov#tt00000001"), "its reads (the gateway's caches) may be the larger: "
                + output);
        assertTrue(output.contains(" busiest_write=" + busy.busiestWrite() + ":"), output);
        assertTrue(busy.exact(), "refused streams are not counted: " + output);
        assertTrue(output.matches("(?s).*rate=1500 throttles=\\d+ hottest=\\S+:\\d+ top10_requests=1 top10_units=0\\.5"
                        + " exact=(yes|no) busiest_write=.* write_units_per_stream=.* feed_read_units=\\d+ top_merge_retries=0.*"),
                "the line's form: " + output);
        assertTrue(output.contains("| streams/s offered | throttles |"), output);
        // The change feed's log: 1,500 streams a second is two stream shards, each publishing once (a ticket
        // and a change item of under 1 KB: 1 write unit each), and three replicas polling 4 times.
        assertEquals(2, busy.feed().publishes(), output);
        assertEquals(4, busy.feed().writeUnits(), 0.001, output);
        assertTrue(busy.feed().readUnits() >= 3 * 4 * 0.5 && busy.feed().readUnits() <= 3 * 4 * 2, output);
    }

    @Test
    void streamModeTakesTwiceTheTransactionalCeilingOnOneMovieWithoutAThrottle() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        // Half of 1,000 streams on one movie: twice what its partition takes with TOTALS=transactional.
        List<CapacityBench.Step> steps = CapacityBench.run(new CapacityBench.Options(200, List.of(1_000), 0.5,
                "stream", 8, 5, 3, 1, 25), new PrintStream(printed, true, StandardCharsets.UTF_8));
        String output = printed.toString(StandardCharsets.UTF_8);

        CapacityBench.Step step = steps.get(0);
        assertEquals(0, step.throttles(), output);
        assertEquals(1_000, step.sent(), output);
        assertTrue(step.exact(), "every stream counted by the aggregator: " + output);
        assertTrue(step.hottestUnits() < 500, output);
        // a put per stream, and the batch's sums: far below a transaction's 6 write units per stream
        assertTrue(step.perStream(step.writeUnits()) > 1 && step.perStream(step.writeUnits()) < 2, output);
        assertTrue(output.contains("write_units_per_stream="), output);
    }

    @Test
    void streamsSentManyToARequestChargeWhatStreamsSentOneByOneCharge() throws Exception {
        // One client, so the streams reach the table (and the aggregator's windows) in the same order both times.
        CapacityBench.Options oneByOne = new CapacityBench.Options(60, List.of(300), 0.2, "stream", 1, 5, 1, 2, 1);
        List<CapacityBench.Step> alone = CapacityBench.run(oneByOne, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
        List<CapacityBench.Step> batched = CapacityBench.run(oneByOne.withBatch(20), new PrintStream(
                new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        for (int i = 0; i < alone.size(); i++) {
            CapacityBench.Step one = alone.get(i);
            CapacityBench.Step many = batched.get(i);
            assertEquals(one.sent(), many.sent());
            assertEquals(0, many.throttles());
            assertEquals(one.refusedStreams(), many.refusedStreams());
            // Writes do not depend on the machine's time; reads do (the gateway's caches of a real second, the live
            // top-10 reads once a real second), and fewer real seconds pass when the streams come 20 to a request.
            assertEquals(one.writeUnits(), many.writeUnits(), 0.001, "step " + i);
            assertEquals(one.feed(), many.feed());
            assertEquals(one.top10Units(), many.top10Units(), 0.001);
            assertTrue(one.exact() && many.exact());
        }
    }

    @Test
    void optionsOutOfRangeAreRefused() {
        assertNull(CapacityBench.parse(new String[] {"--totals", "sometimes"}));
        assertNull(CapacityBench.parse(new String[] {"--rates", "100,-5"}));
        assertNull(CapacityBench.parse(new String[] {"--movies"}));
        assertNull(CapacityBench.parse(new String[] {"--windows", "0"}));
        assertEquals(8, CapacityBench.parse(new String[] {"--windows", "8"}).windows());
        assertNull(CapacityBench.parse(new String[] {"--batch", "51"}), "past the server's 50 aliases");
        assertEquals(25, CapacityBench.parse(new String[0]).batch());
        assertEquals(1, CapacityBench.parse(new String[] {"--batch", "1"}).batch());
    }

    @Test
    void aSecondIsCountedInWindowsOfEqualStreams() {
        // The aggregator's window, cut at so many streams (StreamAggregatorWindowTest: it honours that).
        assertEquals(250, CapacityBench.window(1_000, 4).maxStreams());
        assertEquals(25_000, CapacityBench.window(100_000, 4).maxStreams());
        assertEquals(34, CapacityBench.window(100, 3).maxStreams(), "rounded up: never a fifth window");
        assertEquals(1, CapacityBench.window(3, 10).maxStreams());
        assertEquals(List.of(100, 1000), CapacityBench.parse(new String[] {"--rates", "100, 1000"}).rates());
    }
}
