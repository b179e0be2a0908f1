package dev.moviegraph.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.moviegraph.dynamo.TopShards;

import org.junit.jupiter.api.Test;

/**
 * The short version of {@code benchmark capacity}, TOTALS=transactional on layout 4: 400 streams a second
 * over 50 movies, which throttled layout 3's one month partition, fit in the top index's shards; 1,500
 * pass the busiest movie's limits (up to 4 write units a stream in its partition and in its shard), so the
 * run reports throttles there, and the top 10 stays exact over what was counted.
 */
class CapacityBenchTest {
    @Test
    void transactionalStreamsSpreadOverTheTopIndexShardsUntilOneMoviesPartitionIsFull() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<CapacityBench.Step> steps = CapacityBench.run(new CapacityBench.Options(50, List.of(400, 1_500), 0,
                "transactional", 8, 5, 3, 4), new PrintStream(printed, true, StandardCharsets.UTF_8));
        String output = printed.toString(StandardCharsets.UTF_8);

        CapacityBench.Step quiet = steps.get(0);
        assertEquals(0, quiet.throttles(), output);
        assertTrue(quiet.hottestUnits() > 100 && quiet.hottestUnits() < 1_000, output);
        assertTrue(quiet.exact(), output);
        assertTrue(quiet.top10Units() >= TopShards.COUNT * 0.5, "a Query per shard: " + output);

        CapacityBench.Step busy = steps.get(1);
        assertTrue(busy.throttles() >= 5, output);
        assertTrue(busy.hottest().contains("mov#tt00000002") || busy.hottest().startsWith("moviegraph/index/gsi7/top#2024-05#"),
                output);
        assertTrue(busy.hottestUnits() > 990 && busy.hottestUnits() <= 1_000, output);
        assertEquals(busy.hottestUnits(), busy.busiestWriteUnits(), 0.001, "the busiest is a write limit: " + output);
        assertTrue(output.contains(" busiest_write=" + busy.busiestWrite() + ":"), output);
        assertTrue(busy.exact(), "refused streams are not counted: " + output);
        assertTrue(output.matches("(?s).*rate=1500 throttles=\\d+ hottest=\\S+:\\d+ top10_units=[0-9.]+ exact=(yes|no) .*"),
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
                "stream", 8, 5, 3, 1), new PrintStream(printed, true, StandardCharsets.UTF_8));
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
    void optionsOutOfRangeAreRefused() {
        assertNull(CapacityBench.parse(new String[] {"--totals", "sometimes"}));
        assertNull(CapacityBench.parse(new String[] {"--rates", "100,-5"}));
        assertNull(CapacityBench.parse(new String[] {"--movies"}));
        assertNull(CapacityBench.parse(new String[] {"--windows", "0"}));
        assertEquals(8, CapacityBench.parse(new String[] {"--windows", "8"}).windows());
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
