package dev.moviegraph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;

import org.junit.jupiter.api.Test;

class LoadRunTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theScheduleHoldsEveryShapeAsOftenAsItsWeightAndSpreadsItOut() {
        List<Integer> weights = List.of(24, 14, 10, 12, 12, 10, 10, 3, 5);
        int[] schedule = LoadRun.schedule(weights);
        assertEquals(100, schedule.length);
        int[] counts = new int[weights.size()];
        for (int slot : schedule) {
            counts[slot]++;
        }
        for (int shape = 0; shape < weights.size(); shape++) {
            assertEquals(weights.get(shape), counts[shape]);
        }
        // Spread out: any quarter of the schedule, wherever it starts, holds about a quarter of each shape.
        for (int start = 0; start < schedule.length; start++) {
            int[] quarter = new int[weights.size()];
            for (int slot = start; slot < start + 25; slot++) {
                quarter[schedule[slot % schedule.length]]++;
            }
            for (int shape = 0; shape < weights.size(); shape++) {
                assertTrue(Math.abs(quarter[shape] - weights.get(shape) / 4.0) <= 1.5, "shape " + shape + " from " + start);
            }
        }
    }

    @Test
    void anAnswerIsCompleteWhenNoRootFieldIsNullAndAWriteCounted() throws Exception {
        assertTrue(LoadRun.complete(json.readTree("{\"movie\": {\"title\": \"x\"}}")));
        assertTrue(LoadRun.complete(json.readTree("{\"recordStream\": {\"counted\": true}}")));
        assertFalse(LoadRun.complete(json.readTree("{\"recordStream\": {\"counted\": false}}")));
        assertFalse(LoadRun.complete(json.readTree("{\"movie\": null}")));
        assertFalse(LoadRun.complete(json.readTree("{}")));
        assertFalse(LoadRun.complete(json.readTree("null")));
    }
}
