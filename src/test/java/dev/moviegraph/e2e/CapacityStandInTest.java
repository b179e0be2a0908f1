package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.bench.capacity.CapacityStandIn;
import dev.moviegraph.bench.capacity.Charge;
import dev.moviegraph.bench.capacity.PartitionLedger;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The capacity model's stand-in between the real server and DynamoDB Local: a stream recorded with
 * TOTALS=transactional charges the movie's partition what DynamoDB would (the movie's check and the
 * total's update, doubled by the transaction) and the month's top-list item its merge, and past the
 * partition's limit the write is refused as DynamoDB refuses it, leaving nothing behind.
 */
class CapacityStandInTest {
    private static final String TOP = "moviegraph";
    /** The movie's partition: its item's and its total's. */
    private static final String SHARD = "mov#tt0111161";
    private static final String TOKEN = "capacity-stand-in-test-token";

    @Test
    void streamsChargeTheirMoviesPartitionAndTheMonthsListAndAreRefusedWholePastTheLimit() throws Exception {
        PartitionLedger ledger = new PartitionLedger();
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.ephemeral(false);
             CapacityStandIn standIn = CapacityStandIn.start(dynamo.endpoint(), ledger);
             Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                     "DYNAMODB_ENDPOINT", standIn.endpoint().toString(), "CREATE_TABLE", "true",
                     "LOAD_SAMPLE", "false", "TOTALS", "transactional", "WRITE_TOKEN", TOKEN)), List.of())) {
            GraphQLClient client = new GraphQLClient(server.port());
            GraphQLClient.Response put = mutate(client,
                    "mutation { putMovie(input: {id: \"tt0111161\", title: \"The Shawshank Redemption\"}) { id } }");
            assertTrue(put.errors().isEmpty(), put.raw().body());
            // 8 write units a second per partition: two streams of one movie fit (each the movie's check and its
            // total's update, in a transaction: 4), a third does not
            ledger.limits(8, 3_000);
            ledger.second(1);

            assertEquals(1, record(client, "s1").path("total").asLong());
            assertEquals(4, ledger.used(TOP, SHARD, Charge.Kind.WRITE), "the movie's check and the total's put, in a transaction");
            assertEquals(1, ledger.used(TOP, "toplist#2024-05", Charge.Kind.WRITE), "the month's list, merged after it");
            assertEquals(2, ledger.used("moviegraph", "str#s1", Charge.Kind.WRITE), "the stream's own item");
            assertEquals(2, record(client, "s2").path("total").asLong());
            assertEquals(8, ledger.used(TOP, SHARD, Charge.Kind.WRITE), "then the check and an increment, in a transaction");
            assertEquals(2, ledger.used(TOP, "toplist#2024-05", Charge.Kind.WRITE), "and the list again");

            GraphQLClient.Response refused = mutate(client, recordStream("s3"));
            JsonNode error = refused.errors().path(0);
            assertEquals("UNAVAILABLE", error.path("extensions").path("code").asText(), refused.raw().body());
            assertEquals("THROTTLED", error.path("extensions").path("reason").asText(), refused.raw().body());
            assertEquals(1, ledger.throttles());
            assertEquals(8, ledger.used(TOP, SHARD, Charge.Kind.WRITE), "a refused write charges nothing");

            ledger.second(2);
            JsonNode again = record(client, "s3");
            assertTrue(again.path("counted").asBoolean(), "the refused stream was not left recorded: " + again);
            assertEquals(3, again.path("total").asLong(), "and its total was not counted");
        }
    }

    private static JsonNode record(GraphQLClient client, String streamId) {
        GraphQLClient.Response response = mutate(client, recordStream(streamId));
        assertTrue(response.errors().isEmpty(), response.raw().body());
        return response.data().path("recordStream");
    }

    private static GraphQLClient.Response mutate(GraphQLClient client, String mutation) {
        return client.post(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                        .put("query", mutation).toString(), "application/json", "application/json",
                Map.of("Authorization", "Bearer " + TOKEN));
    }

    private static String recordStream(String streamId) {
        return "mutation { recordStream(input: {movieId: \"tt0111161\", streamId: \"" + streamId
                + "\", at: \"2024-05-04T10:00:00Z\"}) { counted total } }";
    }
}
