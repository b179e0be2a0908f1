package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.TestItems;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.support.FakeDynamoEndpoint;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.GraphQLClient;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * The real server and the real SDK client against a fake DynamoDB endpoint that throttles GetItem
 * (HTTP 400, ProvisionedThroughputExceededException): the client retries with backoff up to its
 * attempt budget, and past it the field gets a clear UNAVAILABLE error that says so, with nothing of
 * AWS's own message.
 */
class DynamoDbThrottlingTest {
    private static final String QUERY = "{ movie(id: \"tt0133093\") { title } }";
    private static final FakeDynamoEndpoint.Answer MATRIX = FakeDynamoEndpoint.item(TestItems.movie(
            new Movie(MovieId.of("tt0133093"), "The Matrix", 1999, null, List.of("Action"), 136)));

    /** The answer, the GetItem attempts DynamoDB saw, the query's time and the time between first and last attempt. */
    private record Outcome(Response response, long attempts, long millis, long retryMillis) {
    }

    /** Starts the gateway on a fake DynamoDB whose GetItem answers {@code getItem}, and runs QUERY. */
    private static Outcome queryWith(IntFunction<FakeDynamoEndpoint.Answer> getItem) {
        try (FakeDynamoEndpoint dynamo = new FakeDynamoEndpoint()
                .on("DescribeTable", attempt -> FakeDynamoEndpoint.activeTable("moviegraph"))
                // the start-up check of the table's layout reads the layout item: it is not the query's read
                .onKey("GetItem", TestItems.layoutKey(), FakeDynamoEndpoint.item(TestItems.currentLayout()))
                // and the sizes of the table's items, for the read estimates: none recorded
                .onKey("GetItem", TestItems.itemSizesKey(), FakeDynamoEndpoint.Answer.ok("{}"))
                .on("GetItem", getItem)) {
            AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", "0",
                    "DYNAMODB_ENDPOINT", dynamo.endpoint().toString()));
            try (Moviegraph server = Moviegraph.start(config, List.of())) {
                long start = System.nanoTime();
                Response response = new GraphQLClient(server.port()).query(QUERY);
                return new Outcome(response, dynamo.attempts("GetItem"), (System.nanoTime() - start) / 1_000_000,
                        dynamo.retryMillis("GetItem"));
            }
        }
    }

    @Test
    void aCallThrottledOnEveryAttemptSpendsTheRetryBudgetThenSaysDynamoDbIsThrottling() {
        Outcome outcome = queryWith(attempt -> FakeDynamoEndpoint.THROTTLED);

        assertEquals(DynamoClients.MAX_ATTEMPTS, outcome.attempts(), "the first attempt and every retry");
        assertTrue(DynamoClients.MAX_ATTEMPTS > 1);
        Response response = outcome.response();
        assertEquals(200, response.status(), "a field error; the request itself was fine");
        assertTrue(response.data().path("movie").isNull());
        JsonNode error = response.errors().path(0);
        assertEquals("UNAVAILABLE", error.path("extensions").path("code").asText());
        assertEquals("THROTTLED", error.path("extensions").path("reason").asText());
        assertTrue(error.path("extensions").path("retryAfterSeconds").asInt() > 0, error.toString());
        assertTrue(error.path("message").asText().startsWith("DynamoDB is throttling the catalog (too busy"),
                error.toString());
        assertEquals(DynamoClients.MAX_ATTEMPTS, response.body().path("extensions").path("cost").path("requests").asInt(),
                "the receipt counts the retries too");
        String body = response.raw().body();
        for (String internal : List.of("ProvisionedThroughput", "provisioning", "Exception", "software.amazon",
                "127.0.0.1")) {
            assertFalse(body.contains(internal), internal + " leaked: " + body);
        }
        System.out.printf("throttled on every attempt: %d attempts over %d ms, UNAVAILABLE after %d ms%n",
                outcome.attempts(), outcome.retryMillis(), outcome.millis());
    }

    @Test
    void aCallThrottledTwiceIsRetriedAndAnswers() {
        Outcome outcome = queryWith(attempt -> attempt <= 2 ? FakeDynamoEndpoint.THROTTLED : MATRIX);

        assertEquals(3, outcome.attempts(), "two throttled attempts, then the answer");
        Response response = outcome.response();
        assertTrue(response.errors().isMissingNode(), response.raw().body());
        assertEquals("The Matrix", response.data().path("movie").path("title").asText());
        System.out.printf("throttled twice: 3 attempts over %d ms, answered after %d ms%n", outcome.retryMillis(),
                outcome.millis());
    }
}
