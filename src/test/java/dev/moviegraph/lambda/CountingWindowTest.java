package dev.moviegraph.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.streams.ShardCounter;

import java.time.YearMonth;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The window Lambda keeps as the function's state between a tumbling window's invocations. */
class CountingWindowTest {
    private static ShardCounter.Counted stream(int movie, String month) {
        return new ShardCounter.Counted(MovieId.of(String.format("tt%08d", movie)), YearMonth.parse(month));
    }

    @Test
    void aWindowReadBackFromItsStateHasTheSameSumsAndBounds() {
        CountingWindow window = CountingWindow.EMPTY
                .plus(List.of(stream(1, "2024-05"), stream(1, "2024-05"), stream(2, "2024-06")), "110", "200", "100")
                .plus(List.of(stream(1, "2024-05")), "210", "300", "250");
        assertEquals(new CountingWindow("100", "110", "300", Map.of(stream(1, "2024-05"), 3L, stream(2, "2024-06"), 1L)),
                window);
        assertEquals(window, CountingWindow.decode(window.encode()));
        assertTrue(CountingWindow.decode(Map.of()).isEmpty());
        assertTrue(window.beganAt("100"));
        assertFalse(window.beganAt("150"), "a checkpoint inside the window: another reader counted part of it");
        assertFalse(window.countedAt("299"));
        assertTrue(window.countedAt("300"));
    }

    @Test
    void recordsThatCountNothingOpenTheWindowAndAreCoveredByItsNextWrite() {
        CountingWindow nothing = CountingWindow.EMPTY.plus(List.of(), "450", "500", "400");
        assertFalse(nothing.isEmpty());
        assertEquals(Map.of(), nothing.sums());
        assertEquals(nothing, CountingWindow.decode(nothing.encode()));
        assertEquals("600", nothing.plus(List.of(stream(1, "2024-05")), "550", "600", "999").to());
        assertEquals("400", nothing.plus(List.of(), "550", "600", "999").from());
    }

    @Test
    void aWindowIsWrittenEarlyBeforeItsStatePassesWhatLambdaKeeps() throws Exception {
        CountingWindow window = CountingWindow.EMPTY;
        int movie = 0;
        while (!window.full()) { // a batch of 500 new totals at a time, as Lambda's batches would add them
            List<ShardCounter.Counted> batch = new java.util.ArrayList<>();
            for (int i = 0; i < 500; i++) {
                batch.add(stream(movie++, "2024-05"));
            }
            window = window.plus(batch, Integer.toString(movie - 500), Integer.toString(movie), null);
        }
        int stateBytes = new ObjectMapper().writeValueAsBytes(window.encode()).length;
        assertTrue(stateBytes < 1_000_000, "Lambda ends a window early past 1 MB: " + stateBytes);
        assertTrue(stateBytes > 500_000, "but the window holds most of it: " + stateBytes + " bytes, " + window.sums().size());
    }
}
