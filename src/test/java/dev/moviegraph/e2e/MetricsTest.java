package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** GET /metrics on the running server, in Prometheus text format, moved by real requests. */
class MetricsTest {
    private final TestServer server = TestServer.get();

    private String metrics() {
        Response response = server.client().get("/metrics", Map.of(), "text/plain");
        assertEquals(200, response.status());
        assertTrue(response.contentType().startsWith("text/plain"), response.contentType());
        return response.raw().body();
    }

    /** The value of the first sample whose line starts with {@code prefix}, or 0 when there is none yet. */
    private static double value(String text, String prefix) {
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(prefix) + " ([0-9.eE+-]+)$").matcher(text);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }

    @Test
    void requestsDynamoDbCallsUnitsAndBatchSizesAreCounted() {
        String query = "query MetricsProbe { topMovies(month: \"2024-05\", limit: 3) { movie { genres } } }";
        String before = metrics();

        server.client().query(query);
        server.client().query(query);
        String after = metrics();

        String requests = "moviegraph_graphql_requests_seconds_count{operation=\"MetricsProbe\",outcome=\"ok\"}";
        assertEquals(2, value(after, requests) - value(before, requests), after);
        String top = "moviegraph_dynamodb_calls_total{index=\"table\",operation=\"GetItem\",outcome=\"ok\"}";
        assertEquals(2, value(after, top) - value(before, top), "the month's top list, one item, twice");
        String units = "moviegraph_dynamodb_consumed_read_units_total{index=\"table\",operation=\"BatchGetItem\"}";
        assertTrue(value(after, units) - value(before, units) >= 2 * 1.5, "3 items by key, twice");
        String batches = "moviegraph_dataloader_batch_size_sum{loader=\"items\"}";
        assertEquals(8, value(after, batches) - value(before, batches), "the list, then three movies, twice");
    }

    @Test
    void theSecondRequestOfADocumentIsServedFromTheDocumentCache() {
        String query = "{ movie(id: \"tt0068646\") { title } cacheProbe: movie(id: \"tt0068646\") { year } }";
        String hits = "cache_gets_total{cache=\"graphql.documents\",result=\"hit\"}";
        String misses = "cache_gets_total{cache=\"graphql.documents\",result=\"miss\"}";
        String before = metrics();

        server.client().query(query);
        server.client().query(query);
        server.client().query(query);
        String after = metrics();

        assertEquals(1, value(after, misses) - value(before, misses), "parsed and validated once");
        assertEquals(2, value(after, hits) - value(before, hits));
    }
}
