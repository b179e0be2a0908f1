package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.bench.capacity.PartitionUsage;
import dev.moviegraph.bench.capacity.UsageClient;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.TestItems;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
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
 * AWS's own message. And against the engine with DynamoDB's partition limits on: streams of one movie
 * recorded with TOTALS=transactional fill its partition's 1,000 write units of a (simulated) second, and the
 * next is refused as DynamoDB refuses it (its transaction cancelled with ThrottlingError), leaving nothing
 * behind, and counted when sent again the next second.
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
    void streamsOfOneMoviePastItsPartitionsThousandWriteUnitsAreRefusedWholeAndCountedTheNextSecond() {
        String token = "throttling-test-token";
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.withPartitionLimits();
             Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                     "DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "CREATE_TABLE", "true",
                     "LOAD_SAMPLE", "false", "TOTALS", "transactional", "WRITE_TOKEN", token,
                     "CLIENT_READ_UNITS_PER_SECOND", "0")), List.of())) {
            GraphQLClient client = new GraphQLClient(server.port());
            UsageClient engine = new UsageClient(dynamo.endpoint());
            Response put = mutate(client, token,
                    "mutation { putMovie(input: {id: \"tt0111161\", title: \"The Shawshank Redemption\"}) { id } }");
            assertTrue(put.errors().isMissingNode() || put.errors().isEmpty(), put.raw().body());
            engine.startSecond(1);
            PartitionUsage.Prefix movies = PartitionUsage.Prefix.of("moviegraph", "mov#");

            PartitionUsage before = engine.usage(0);
            assertEquals(1, record(client, token, "s1").path("total").asLong());
            double perStream = engine.usage(0).since(before).counts(movies).writeUnits();
            assertTrue(perStream >= 2, "the total's update, doubled by the transaction: " + perStream);

            // 25 streams to a request, aliases of one mutation run in order: the first refused ends the request there
            int counted = 1;
            Response refused = null;
            while (refused == null && counted < 1_000) {
                StringBuilder streams = new StringBuilder("mutation {");
                for (int k = 0; k < 25; k++) {
                    streams.append(" r").append(k).append(": ").append(recordStreamField("s" + (counted + 1 + k)));
                }
                Response response = mutate(client, token, streams.append(" }").toString());
                if (response.errors().isMissingNode() || response.errors().isEmpty()) {
                    counted += 25;
                } else {
                    refused = response;
                    counted += Integer.parseInt(response.errors().path(0).path("path").path(0).asText().substring(1));
                }
            }
            assertTrue(refused != null, "1,000 streams of one movie in one second were never refused");
            JsonNode error = refused.errors().path(0);
            assertEquals("UNAVAILABLE", error.path("extensions").path("code").asText(), refused.raw().body());
            assertEquals("THROTTLED", error.path("extensions").path("reason").asText(), refused.raw().body());
            PartitionUsage full = engine.usage(5);
            assertEquals("moviegraph/mov#tt0111161[write]", full.busiestWrite().get(0).name(), full.toString());
            double units = full.busiestWrite().get(0).amount();
            assertTrue(units <= 1_000 && units > 1_000 - 2 * perStream, units + " units, " + perStream + " a stream");
            assertEquals(Math.floor(1_000 / perStream), counted, 1, "the streams that fit in the movie's thousand units");
            assertTrue(full.refused() >= 1, full.toString());
            System.out.printf("one movie's partition: %.0f write units a stream, %d streams counted in a second (%.0f"
                    + " units), then refused%n", perStream, counted, units);

            engine.startSecond(2);
            JsonNode again = record(client, token, "s" + (counted + 1));
            assertTrue(again.path("counted").asBoolean(), "the refused stream was not left recorded: " + again);
            assertEquals(counted + 1, again.path("total").asLong(), "and its total was not counted");
        }
    }

    private static JsonNode record(GraphQLClient client, String token, String streamId) {
        Response response = mutate(client, token, recordStream(streamId));
        assertTrue(response.errors().isMissingNode() || response.errors().isEmpty(), response.raw().body());
        return response.data().path("recordStream");
    }

    private static Response mutate(GraphQLClient client, String token, String mutation) {
        return client.post(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                        .put("query", mutation).toString(), "application/json", "application/json",
                Map.of("Authorization", "Bearer " + token));
    }

    private static String recordStream(String streamId) {
        return "mutation { " + recordStreamField(streamId) + " }";
    }

    private static String recordStreamField(String streamId) {
        return "recordStream(input: {movieId: \"tt0111161\", streamId: \"" + streamId
                + "\", at: \"2024-05-04T10:00:00Z\"}) { counted total }";
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
