package dev.moviegraph.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The short version of {@code benchmark capacity}: today's layout with TOTALS=transactional takes 50
 * streams in a second, and 400 pass the month's index partition's 1,000 write units (up to 4 a stream), so
 * the run reports throttles there, at that partition, and the top 10 stays exact over what was counted.
 */
class CapacityBenchTest {
    @Test
    void todaysLayoutThrottlesTheMonthsIndexPartitionPastAbout250TransactionalStreamsASecond() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<CapacityBench.Step> steps = CapacityBench.run(new CapacityBench.Options(50, List.of(50, 400), 0,
                "transactional", 8, 5), new PrintStream(printed, true, StandardCharsets.UTF_8));
        String output = printed.toString(StandardCharsets.UTF_8);

        CapacityBench.Step quiet = steps.get(0);
        assertEquals(0, quiet.throttles(), output);
        assertEquals("moviegraph/index/gsi2/month#2024-05[write]", quiet.hottest(), output);
        // 2 units for a movie's first stream of the month (its total's entry put), 4 for each after (moved)
        assertTrue(quiet.hottestUnits() > 100 && quiet.hottestUnits() < 200, output);
        assertTrue(quiet.exact(), output);
        assertTrue(quiet.top10Units() > 0, output);

        CapacityBench.Step busy = steps.get(1);
        assertTrue(busy.throttles() >= 5, output);
        assertEquals("moviegraph/index/gsi2/month#2024-05[write]", busy.hottest(), output);
        assertTrue(busy.hottestUnits() > 996 && busy.hottestUnits() <= 1_000, output);
        assertTrue(busy.exact(), "refused streams are not counted: " + output);
        assertTrue(output.contains("rate=400 throttles="), output);
        assertTrue(output.contains("| streams/s offered | throttles |"), output);
    }

    @Test
    void optionsOutOfRangeAreRefused() {
        assertNull(CapacityBench.parse(new String[] {"--totals", "sometimes"}));
        assertNull(CapacityBench.parse(new String[] {"--rates", "100,-5"}));
        assertNull(CapacityBench.parse(new String[] {"--movies"}));
        assertEquals(List.of(100, 1000), CapacityBench.parse(new String[] {"--rates", "100, 1000"}).rates());
    }
}
