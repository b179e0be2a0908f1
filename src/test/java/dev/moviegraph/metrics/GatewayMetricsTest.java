package dev.moviegraph.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.StoreCall;
import dev.moviegraph.metrics.GatewayMetrics.Outcome;

import java.util.List;

import org.junit.jupiter.api.Test;

class GatewayMetricsTest {
    private final GatewayMetrics metrics = new GatewayMetrics();

    @Test
    void requestsAreCountedByOperationNameAndOutcome() {
        metrics.request("TopMovies", Outcome.OK, 2_000_000);
        metrics.request("TopMovies", Outcome.OK, 3_000_000);
        metrics.request(null, Outcome.REJECTED, 1_000_000);

        String text = metrics.scrape();

        assertTrue(text.contains("moviegraph_graphql_requests_seconds_count{operation=\"TopMovies\",outcome=\"ok\"} 2"), text);
        assertTrue(text.contains("moviegraph_graphql_requests_seconds_count{operation=\"anonymous\",outcome=\"rejected\"} 1"), text);
        assertTrue(text.contains("moviegraph_graphql_requests_seconds_bucket{operation=\"TopMovies\",outcome=\"ok\",le="), text);
    }

    @Test
    void clientChosenOperationNamesCannotGrowTheSeriesWithoutBound() {
        for (int i = 0; i < GatewayMetrics.MAX_OPERATION_NAMES + 50; i++) {
            metrics.request("Op" + i, Outcome.OK, 1_000);
        }
        metrics.request("not a name {}", Outcome.OK, 1_000);

        String text = metrics.scrape();

        assertTrue(text.contains("operation=\"Op0\""));
        assertFalse(text.contains("operation=\"Op" + (GatewayMetrics.MAX_OPERATION_NAMES + 10) + "\""));
        assertTrue(text.contains("moviegraph_graphql_requests_seconds_count{operation=\"other\",outcome=\"ok\"} 51"), text);
    }

    @Test
    void dynamoDbCallsCountRequestsAndUnitsByOperationAndIndex() {
        metrics.completed(new StoreCall("CAST_PAGE", "Query", "lsi1", "pk = mov#tt1", 0, 5, 2, 3, 1.5, 0, 0, 10,
                List.of("movie.cast"), false));

        String text = metrics.scrape();

        assertTrue(text.contains("moviegraph_dynamodb_calls_total{index=\"lsi1\",operation=\"Query\",outcome=\"ok\"} 1.0"), text);
        assertTrue(text.contains("moviegraph_dynamodb_requests_total{index=\"lsi1\",operation=\"Query\"} 3.0"), text);
        assertTrue(text.contains("moviegraph_dynamodb_consumed_read_units_total{index=\"lsi1\",operation=\"Query\"} 1.5"), text);
    }

    @Test
    void dataLoaderBatchSizesAreADistribution() {
        metrics.batch("items", 20);
        metrics.batch("items", 3);

        String text = metrics.scrape();

        assertTrue(text.contains("moviegraph_dataloader_batch_size_count{loader=\"items\"} 2"), text);
        assertTrue(text.contains("moviegraph_dataloader_batch_size_sum{loader=\"items\"} 23"), text);
    }
}
